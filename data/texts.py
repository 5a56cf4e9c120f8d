"""Every word the bot says, in English, Italian, French and German: the languages of the
rulebooks.

The texts are data, one file per language, so that a player who speaks the language can
correct a sentence without reading code. What the bot says in every game (the lobby, votes,
stats, the /game commands) is in `data/locales/<language>.toml`; what only one game says (its
moves, prompts, refusals, picture labels and slash commands) is in the game's own folder,
`<package>/locales/<language>.toml` with the package its manifest names (`games/pylons/locales/`
for Pylons), so that a game's words come and go with the game. Registering a game (`games`)
adds its files to the catalogue of each language; a key is defined once, in one file, and a
key found in two files is an error.

A key is a dotted path into the file ("lobby.waiting"), the same whichever file it is in; its
text is a `str.format` template whose fields are named ("{player} placed a pylon on {cell}").
A text that depends on a number is a table of plural forms (`one`, `other`) chosen by the
`count` field with each language's rule.

Which language to use is the caller's decision: a reply to one person follows their Discord
client (`interaction.locale`), a public post the server's preferred locale, a direct message the
language the person last used with the bot. Any locale the bot does not speak falls back to
English, as does any key a translation lacks (a test keeps every file complete in the four
languages, so that fallback is only a safety net).

Hidden information never passes through here by itself: the texts are templates, and the
callers decide what fills them.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from data import DataError, load_text

LANGUAGES = ("en", "it", "fr", "de")
DEFAULT = "en"
PLURAL_FORMS = frozenset({"one", "other"})
_FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


def language_of(locale: object | None) -> str:
    """The language the bot speaks for a Discord locale ("it", "en-GB", discord.Locale.french),
    English for any other."""
    if locale is None:
        return DEFAULT
    value = getattr(locale, "value", locale)
    code = str(value).lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT


def _is_one(language: str, count: int) -> bool:
    """Which plural form a count takes: French counts 0 with 1 ("0 ligne"), the others do not."""
    if language == "fr":
        return count in (0, 1)
    return count == 1


def _flatten(table: Mapping[str, Any], prefix: str, path: str) -> Iterator[tuple[str, Any]]:
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, str):
            yield key, value
        elif isinstance(value, dict) and value and set(value) <= PLURAL_FORMS:
            if set(value) != PLURAL_FORMS or not all(isinstance(v, str) for v in value.values()):
                raise DataError(path, f"{key}: a plural text needs both 'one' and 'other' texts")
            yield key, dict(value)
        elif isinstance(value, dict):
            yield from _flatten(value, key + ".", path)
        else:
            raise DataError(path, f"{key}: a text must be a string, found {type(value).__name__}")


# The packages holding each game's texts (`<package>/locales/<language>.toml`), in the order
# the games' manifests register them (see `games`). The bot's own texts are in `data/locales/`.
_GAME_TEXTS: list[str] = []


def add_game_texts(package: str) -> None:
    """Add a game's texts to every language's catalogue (its manifest does, see `games`)."""
    if package not in _GAME_TEXTS:
        _GAME_TEXTS.append(package)
        catalogue.cache_clear()
        _command_tree.cache_clear()  # the game's commands are named in its files
        for language in LANGUAGES:
            _texts(language).forget_said()


def text_packages() -> list[str]:
    """The packages whose `locales/<language>.toml` hold texts: "data" (the bot's own), then
    every registered game's, in the order registered."""
    return ["data", *_GAME_TEXTS]


# The project's folder, holding `data`: a DataError names its file from there.
_PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _file(package: str, language: str) -> Traversable:
    return resources.files(package).joinpath("locales", f"{language}.toml")


def file_name(package: str, language: str) -> str:
    """Where one file of texts is, from the project's folder: "games/pylons/locales/it.toml"."""
    found = _file(package, language)
    if isinstance(found, os.PathLike):
        return os.path.relpath(found, _PROJECT).replace(os.sep, "/")
    return f"{package.replace('.', '/')}/locales/{language}.toml"


def file_texts(package: str, language: str) -> dict[str, str | dict[str, str]]:
    """The texts of one file, `<package>/locales/<language>.toml`, by dotted key: the bot's
    own (package "data") or one game's. A game without the file has no texts of its own."""
    where = file_name(package, language)
    try:
        raw = _file(package, language).read_text(encoding="utf-8")
    except FileNotFoundError:
        if package != "data":
            return {}
        raise DataError(where, "cannot be read (FileNotFoundError)") from None
    except OSError as exc:
        raise DataError(where, f"cannot be read ({exc.__class__.__name__})") from exc
    try:
        doc = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(where, f"is not valid TOML ({exc})") from exc
    return dict(_flatten(doc, "", where))


@functools.cache
def catalogue(language: str) -> dict[str, str | dict[str, str]]:
    """Every text of one language by dotted key (plural texts as {'one': ..., 'other': ...}):
    the bot's own and every registered game's."""
    if language not in LANGUAGES:
        raise ValueError(f"no texts for language {language!r}; the bot speaks {LANGUAGES}")
    texts = file_texts("data", language)
    where = {key: "data" for key in texts}
    for package in _GAME_TEXTS:
        for key, text in file_texts(package, language).items():
            if key in texts:
                raise DataError(
                    file_name(package, language),
                    f"{key}: the text is defined in {file_name(where[key], language)} already",
                )
            texts[key] = text
            where[key] = package
    return texts


@functools.cache
def long_text(path: str, language: str, package: str = "data") -> str:
    """A long text (a game's rules) in a language: `<package>/<dir>/<name>.<language>.md`
    beside the English `<name>.md`, which is used when no translation exists. A game's rules
    are in its texts package (see `games.GamePlugin.texts`), wherever that is."""
    stem, dot, suffix = path.rpartition(".")
    if language != DEFAULT:
        translated = f"{stem}.{language}{dot}{suffix}"
        if resources.files(package).joinpath(translated).is_file():
            return load_text(translated, package)
    return load_text(path, package)


def fields_of(template: str | dict[str, str]) -> set[str]:
    """The named fields a text fills in (for the test that all languages agree on them)."""
    forms = template.values() if isinstance(template, dict) else [template]
    return {match.group(1) for form in forms for match in _FIELD.finditer(form)}


@dataclass(frozen=True, slots=True)
class Command:
    """A slash command named in a text, by its English path ("game board", or a group such as
    "hv" for all its commands).

    Said as a Discord command mention once the bot knows its commands' ids (`mention_commands`):
    each client shows a mention in its own language and makes it clickable. Until then, and
    outside Discord, it is the typed form ("/game board"). A group leaves out the commands
    named in `without`: those a game's mode never takes (Sector 6's novice game refuses
    `rotate`), which a list of what may be done here should not offer."""

    path: str
    without: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Option:
    """An option of a slash command named in a text, by its English path ("game new mode").

    Said with the name the reader's client shows for it ("modalità" in Italian, "modus" in
    German), from the command tree of the texts: a text never names an option in English to
    a reader whose client lists it under another name."""

    path: str


# The ids of the bot's commands by top-level name, as Discord registered them; empty until
# known (see `mention_commands`). One bot application per process, so one table.
_COMMAND_IDS: dict[str, int] = {}
# A command as texts write it: "/game board", "`/s6 place cell:<cell> rotation:<turn>`".
_TYPED_COMMAND = re.compile(
    r"(?P<tick>`?)/(?P<group>[a-z0-9_-]+)(?P<rest>(?: [a-z0-9_-]+)?"
    r"(?: [a-z_]+:(?:<[^>`]*>|[^\s`,;)]*[^\s`.,;)]))*)(?P=tick)"
)
_OPTION = re.compile(r"(?P<name>[a-z_]+):(?P<value><[^>`]*>|\S+)")


def mention_commands(ids: Mapping[str, int]) -> None:
    """From now on, name commands in texts as Discord mentions (`</game board:123>`): `ids`
    are the registered commands' ids by top-level name, as a sync or a fetch returns them."""
    _COMMAND_IDS.clear()
    _COMMAND_IDS.update(ids)
    for language in LANGUAGES:
        _texts(language).forget_said()


@functools.cache
def _command_tree() -> dict[str, dict[str, frozenset[str]]]:
    """The bot's commands as the English texts name them: group -> command -> option names."""
    tree: dict[str, dict[str, set[str]]] = {}
    for key in catalogue(DEFAULT):
        parts = key.split(".")
        if parts[0] != "commands" or parts[-1] != "name" or parts[1] == "choices":
            continue
        if len(parts) == 3:
            tree.setdefault(parts[1], {})
        elif len(parts) == 4:
            tree.setdefault(parts[1], {}).setdefault(parts[2], set())
        elif len(parts) == 5:
            tree.setdefault(parts[1], {}).setdefault(parts[2], set()).add(parts[3])
    return {g: {c: frozenset(o) for c, o in cmds.items()} for g, cmds in tree.items()}


@functools.cache
def _option_keys() -> dict[tuple[str, str, str], str]:
    """(group, command, option's English name) -> the option's name in the texts' keys."""
    found = {}
    for key, value in catalogue(DEFAULT).items():
        parts = key.split(".")
        if len(parts) == 5 and parts[0] == "commands" and parts[-1] == "name":
            found[(parts[1], parts[2], str(value))] = parts[3]
    return found


# Fields filled in as they are without asking `Texts._said` (none is a text of its own, a
# command or an option): most fields of most texts, which the bot says thousands of times a game.
_AS_IT_IS = frozenset({str, int, float, bool, type(None)})
_NO_FIELDS: dict[str, Any] = {}


class Texts:
    """The texts of one language, called like a function: `texts("lobby.waiting", seats=2)`.

    It reads the catalogues when asked, not when made: a `Texts` made before a game is
    registered (`ENGLISH`, made on import) says that game's texts too."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._mentioned: dict[str, str | dict[str, str]] = {}
        # Texts said without fields (a button's label, a heading), by key: the same every
        # time until the catalogue or the commands' mentions change (`forget_said`), and said
        # on every post (a lobby's five buttons at each change of its seats).
        self._plain: dict[str, str] = {}

    @property
    def _own(self) -> Mapping[str, str | dict[str, str]]:
        return catalogue(self.language)

    @property
    def _english(self) -> Mapping[str, str | dict[str, str]]:
        return catalogue(DEFAULT)

    def __repr__(self) -> str:
        return f"Texts({self.language!r})"

    def forget_said(self) -> None:
        """The catalogue or the commands' mentions changed: texts are made afresh."""
        self._mentioned.clear()
        self._plain.clear()

    def template(self, key: str) -> str | dict[str, str]:
        """The raw text of a key; a key missing from English is a bug and raises KeyError."""
        found = self._own.get(key)
        if found is None:
            found = self._english[key]
        if not _COMMAND_IDS:
            return found
        mentioned = self._mentioned.get(key)
        if mentioned is None:
            if isinstance(found, dict):
                mentioned = {form: self._mention_in(text) for form, text in found.items()}
            else:
                mentioned = self._mention_in(found)
            self._mentioned[key] = mentioned
        return mentioned

    def command(self, command: Command) -> str:
        """A command for a person to use: a mention (a group as all its commands), or as typed
        while the commands' ids are unknown."""
        group, _, name = command.path.partition(" ")
        commands = _command_tree().get(group, {})
        if group not in _COMMAND_IDS:
            return f"/{command.path}"
        if name or not commands:
            return f"</{command.path}:{_COMMAND_IDS[group]}>"
        return ", ".join(
            f"</{group} {each}:{_COMMAND_IDS[group]}>"
            for each in commands
            if each not in command.without
        )

    def option(self, option: Option) -> str:
        """An option's name as this language's client shows it; as typed if the texts do not
        name it (an option no command has)."""
        group, command, name = option.path.split(" ")
        key = f"commands.{group}.{command}.{name}.name"
        return self(key) if self.has(key) else name

    def with_mentions(self, text: str) -> str:
        """A text that is not in the catalogue (a game's rules) with its typed commands said
        as every template's are: mentions with the option names of this language, once the
        commands' ids are known."""
        return self._mention_in(text) if _COMMAND_IDS else text

    def _mention_in(self, template: str) -> str:
        """A template with its typed commands as mentions, and the option names after each in
        this language (a mention shows the command's name in the reader's client language)."""

        def replace(match: re.Match[str]) -> str:
            group, rest = match["group"], match["rest"]
            commands = _command_tree().get(group)
            if commands is None or group not in _COMMAND_IDS:
                return match[0]
            words = rest.split(" ")[1:] if rest else []
            name = words[0] if words and words[0] in commands else ""
            if commands and not name:
                return match[0]  # a group in prose ("/stats in a channel"): left as typed
            options = words[1:] if name else words
            said = [self.command(Command(f"{group} {name}".strip()))]
            if options:
                typed = " ".join(self._option(group, name, option) for option in options)
                said.append(f"`{typed}`" if match["tick"] else typed)
            return " ".join(said)

        return _TYPED_COMMAND.sub(replace, template)

    def _option(self, group: str, command: str, typed: str) -> str:
        """`name:value` with the option's name as this language's client shows it (a text
        names an option as English Discord shows it, which may differ from its name in the
        code: /s6 move `from:` is `origin`)."""
        found = _OPTION.fullmatch(typed)
        if found is None:
            return typed
        name = _option_keys().get((group, command, found["name"]), found["name"])
        key = f"commands.{group}.{command}.{name}.name"
        if not self.has(key):
            return typed
        return f"{self(key)}:{found['value']}"

    def __call__(self, key: str, /, **fields: Any) -> str:
        if not fields:
            said = self._plain.get(key)
            if said is None:
                said = self._plain[key] = self._say(key, fields)
            return said
        return self._say(key, fields)

    def _say(self, key: str, fields: dict[str, Any]) -> str:
        template = self.template(key)
        if isinstance(template, dict):
            if "count" not in fields:
                raise KeyError(f"{key} is a plural text: pass count=")
            form = "one" if _is_one(self.language, int(fields["count"])) else "other"
            template = template[form]
        if not fields:
            return template.format_map(_NO_FIELDS)
        for value in fields.values():
            if value.__class__ not in _AS_IT_IS:
                said = self._said
                fields = {name: said(value) for name, value in fields.items()}
                break
        return template.format_map(fields)

    def _said(self, value: Any) -> Any:
        """A field that is a text itself (a part of a refusal with its own key and fields, such
        as a compass side) is said in this language too; any other value is filled in as it is."""
        if isinstance(value, Command):
            return self.command(value)
        if isinstance(value, Option):
            return self.option(value)
        key = getattr(value, "key", None)
        if isinstance(key, str) and key in self._english:
            return self(key, **dict(getattr(value, "fields", {}) or {}))
        return value

    def has(self, key: str) -> bool:
        return key in self._english

    def explain(self, error: BaseException) -> str:
        """An error's message in this language: from its key when it has one, else its text."""
        key = getattr(error, "key", None)
        if key and self.has(key):
            return self(key, **dict(getattr(error, "fields", {}) or {}))
        return str(error)


def texts_for(locale: object | None = None) -> Texts:
    """The texts for a Discord locale or a language code (English for anything unknown)."""
    return _texts(language_of(locale))


@functools.cache
def _texts(language: str) -> Texts:
    return Texts(language)


ENGLISH = texts_for(DEFAULT)
