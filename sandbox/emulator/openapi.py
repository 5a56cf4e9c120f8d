"""Check request bodies against Discord's published OpenAPI schema of API v10.

The schema is not part of the repository: it is found through the `DISCORD_OPENAPI_SPEC`
environment variable or next to the checkout (`../shared/discord-api-spec/openapi.json`). When
it is absent the check is skipped, never failed, so a clone elsewhere still runs the tests.

This is a small, pragmatic JSON-schema checker (no extra dependency): `$ref`, `allOf`, `oneOf`
/`anyOf`, types, `enum`/`const`, string and array lengths, numeric bounds, required properties
and map values. Unknown properties are ignored, as Discord ignores them. Snowflakes may be sent
as integers (discord.py does so for attachment ids and Discord accepts it). Violations come back
in Discord's own nested error shape, ready for a 400 / 50035 answer.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV_VAR = "DISCORD_OPENAPI_SPEC"
API_PREFIX = "/api/v10"

FieldPath = tuple[str, ...]
CHECKED_KEPT = 1024  # request bodies whose answer is kept (16-byte digests, not the bodies)


@dataclass(frozen=True)
class Violation:
    path: FieldPath
    code: str
    message: str


def locate_spec(start: Path | None = None) -> Path | None:
    """The schema file named by the environment, or the one beside the checkout, if present."""
    named = os.environ.get(ENV_VAR, "").strip()
    if named:
        path = Path(named)
        return path if path.is_file() else None
    here = (start or Path(__file__)).resolve()
    for folder in here.parents:
        if (folder / "pyproject.toml").is_file():
            candidate = folder.parent / "shared" / "discord-api-spec" / "openapi.json"
            return candidate if candidate.is_file() else None
    return None


@functools.cache
def load_validator(path: str) -> SpecValidator:
    """One parsed schema per process: it is large and never changes during a run."""
    with open(path, encoding="utf-8") as handle:
        return SpecValidator(json.load(handle))


def errors_tree(violations: list[Violation]) -> dict[str, Any]:
    """Discord's shape: {"data": {"content": {"_errors": [{"code", "message"}]}}}."""
    tree: dict[str, Any] = {}
    for item in violations:
        node = tree
        for key in item.path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": item.code, "message": item.message})
    return tree


class SpecValidator:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._routes: list[tuple[re.Pattern[str], int, str]] = []
        for template in spec.get("paths", {}):
            literal = sum(1 for part in template.split("/") if part and "{" not in part)
            pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
            self._routes.append((re.compile(f"^{pattern}$"), literal, template))
        # Literal segments win over parameters (".../messages/@original" over ".../{id}").
        self._routes.sort(key=lambda item: -item[1])
        # Answers to the bodies checked lately, by digest (see check_request).
        self._checked: dict[bytes, tuple[Violation, ...]] = {}

    # ------------------------------------------------------------------ routes

    def template_for(self, path: str) -> str | None:
        path = path.removeprefix(API_PREFIX)
        for pattern, _, template in self._routes:
            if pattern.match(path):
                return template
        return None

    def request_schema(self, method: str, path: str) -> dict[str, Any] | None:
        template = self.template_for(path)
        if template is None:
            return None
        return self._schema_of(method, template)

    def _schema_of(self, method: str, template: str) -> dict[str, Any] | None:
        operation = self.spec["paths"][template].get(method.lower())
        if not operation:
            return None
        content = (operation.get("requestBody") or {}).get("content") or {}
        body = content.get("application/json")
        return body.get("schema") if body else None

    def check_request(self, method: str, path: str, body: Any) -> list[Violation]:
        template = self.template_for(path)
        schema = None if template is None else self._schema_of(method, template)
        if template is None or schema is None:
            return []
        # A bot sends some bodies again and again, the largest most of all: its commands, at
        # every start (80 kB, some 20 ms to check). A body checked once has its answer kept,
        # by its text's digest; the schema never changes.
        text = json.dumps([method, template, body], sort_keys=True, separators=(",", ":"))
        key = hashlib.blake2b(text.encode(), digest_size=16).digest()
        known = self._checked.get(key)
        if known is None:
            known = self._checked[key] = tuple(self.check(schema, body))
            while len(self._checked) > CHECKED_KEPT:
                del self._checked[next(iter(self._checked))]
        return list(known)

    # ------------------------------------------------------------------ schemas

    def check(self, schema: dict[str, Any], value: Any, path: FieldPath = ()) -> list[Violation]:
        found: list[Violation] = []
        self._check(schema, value, path, found)
        return found

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        seen = 0
        while "$ref" in schema:
            ref = schema["$ref"]
            target: Any = self.spec
            for part in ref.removeprefix("#/").split("/"):
                target = target[part]
            extra = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **extra}
            seen += 1
            if seen > 50:
                raise ValueError(f"reference loop at {ref}")
        return schema

    def _check(self, schema: dict[str, Any], value: Any, path: FieldPath, out: list[Violation]):
        schema = self._resolve(schema)
        for sub in schema.get("allOf", ()):
            self._check(sub, value, path, out)
        branches = schema.get("oneOf") or schema.get("anyOf")
        if branches and "const" not in branches[0]:
            self._check_union(branches, value, path, out)
        elif branches and not any(b.get("const") == value for b in branches):
            allowed = ", ".join(str(b.get("const")) for b in branches)
            out.append(Violation(path, "BASE_TYPE_CHOICES", f"Value must be one of ({allowed})."))
            return
        types = schema.get("type")
        if types is not None and not self._type_ok(types, schema, value):
            wanted = types if isinstance(types, str) else "/".join(types)
            out.append(
                Violation(path, "BASE_TYPE_TYPE", f"Could not interpret {value!r} as {wanted}.")
            )
            return
        if "enum" in schema and value not in schema["enum"]:
            allowed = ", ".join(map(str, schema["enum"]))
            out.append(Violation(path, "BASE_TYPE_CHOICES", f"Value must be one of ({allowed})."))
        if "const" in schema and value != schema["const"]:
            out.append(
                Violation(path, "BASE_TYPE_CHOICES", f"Value must be one of ({schema['const']}).")
            )
        if isinstance(value, str):
            self._check_string(schema, value, path, out)
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int | float):
            self._check_number(schema, value, path, out)
        elif isinstance(value, list):
            self._check_array(schema, value, path, out)
        elif isinstance(value, dict):
            self._check_object(schema, value, path, out)

    def _check_union(
        self, branches: list[dict[str, Any]], value: Any, path: FieldPath, out: list[Violation]
    ) -> None:
        attempts: list[list[Violation]] = []
        for branch in branches:
            found: list[Violation] = []
            self._check(branch, value, path, found)
            if not found:
                return
            attempts.append(found)

        def rank(found: list[Violation]) -> tuple[int, int, int, int]:
            wrong_type = any(v.path == path and v.code == "BASE_TYPE_TYPE" for v in found)
            wrong_kind = any(v.path == (*path, "type") for v in found)
            depth = max(len(v.path) for v in found)
            return (int(wrong_type), int(wrong_kind), len(found), -depth)

        closest = min(attempts, key=rank)
        out.extend(closest)

    @staticmethod
    def _type_ok(types: str | list[str], schema: dict[str, Any], value: Any) -> bool:
        names = [types] if isinstance(types, str) else types
        for name in names:
            if name == "null" and value is None:
                return True
            if name == "boolean" and isinstance(value, bool):
                return True
            if name == "integer" and isinstance(value, int) and not isinstance(value, bool):
                return True
            if name == "number" and isinstance(value, int | float) and not isinstance(value, bool):
                return True
            if name == "string" and isinstance(value, str):
                return True
            if (
                name == "string"
                and schema.get("format") in ("snowflake", "int64")
                and isinstance(value, int)
                and not isinstance(value, bool)
                and value >= 0
            ):
                return True
            if name == "array" and isinstance(value, list):
                return True
            if name == "object" and isinstance(value, dict):
                return True
        return False

    @staticmethod
    def _check_string(schema: dict[str, Any], value: str, path: FieldPath, out: list[Violation]):
        low, high = schema.get("minLength"), schema.get("maxLength")
        if high is not None and len(value) > high:
            out.append(
                Violation(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
            )
        if low is not None and len(value) < low:
            out.append(Violation(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length."))
        pattern = schema.get("pattern")
        if pattern and not re.search(pattern, value):
            out.append(
                Violation(path, "STRING_TYPE_REGEX", f"String value did not match {pattern}.")
            )

    @staticmethod
    def _check_number(schema: dict[str, Any], value: float, path: FieldPath, out: list[Violation]):
        low, high = schema.get("minimum"), schema.get("maximum")
        if high is not None and value > high:
            out.append(Violation(path, "NUMBER_TYPE_MAX", f"Must be less than or equal to {high}."))
        if low is not None and value < low:
            out.append(
                Violation(path, "NUMBER_TYPE_MIN", f"Must be greater than or equal to {low}.")
            )

    def _check_array(
        self, schema: dict[str, Any], value: list[Any], path: FieldPath, out: list[Violation]
    ) -> None:
        low, high = schema.get("minItems"), schema.get("maxItems")
        if (high is not None and len(value) > high) or (low is not None and len(value) < low):
            out.append(
                Violation(
                    path,
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between {low or 0} and {high if high is not None else 'any'} "
                    "in length.",
                )
            )
        items = schema.get("items")
        if items:
            for index, item in enumerate(value):
                self._check(items, item, (*path, str(index)), out)

    def _check_object(
        self, schema: dict[str, Any], value: dict[str, Any], path: FieldPath, out: list[Violation]
    ) -> None:
        properties = schema.get("properties") or {}
        for name in schema.get("required", ()):
            if name not in value:
                out.append(Violation((*path, name), "BASE_TYPE_REQUIRED", "This field is required"))
        for name, item in value.items():
            if name in properties:
                self._check(properties[name], item, (*path, name), out)
            elif isinstance(schema.get("additionalProperties"), dict):
                self._check(schema["additionalProperties"], item, (*path, name), out)
        most = schema.get("maxProperties")
        if most is not None and len(value) > most:
            out.append(
                Violation(path, "BASE_TYPE_BAD_LENGTH", f"Must have at most {most} properties.")
            )
