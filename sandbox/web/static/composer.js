// The message box at the bottom: plain chat, and Discord's slash-command flow (menu of commands,
// a form with one field per option, fixed choices and the bot's live autocomplete).
//
// Names and descriptions come localised from the view's command tree; what is sent uses the
// commands' and options' own names, as a Discord client does.

import { t } from "./i18n.js";
import { el } from "./markdown.js";

const $ = (id) => document.getElementById(id);
const AUTOCOMPLETE_DELAY_MS = 150;
const MAX_CHOICES = 25; // Discord's limit on an option's choices (the menu of commands has none)
const NESTING = new Set(["subcommand", "group"]);

/** Every command a person can run, flattened to its leaves ("game new"), required options first. */
export function leaves(commands, names = [], labels = []) {
  const out = [];
  for (const command of commands || []) {
    const options = command.options || [];
    const path = [...names, command.name];
    const shown = [...labels, command.label || command.name];
    if (options.some((o) => NESTING.has(o.type))) {
      out.push(...leaves(options.filter((o) => NESTING.has(o.type)), path, shown));
    } else {
      const ordered = [...options.filter((o) => o.required), ...options.filter((o) => !o.required)];
      out.push({ command: path.join(" "), label: shown.join(" "), description: command.description || "", options: ordered });
    }
  }
  return out;
}

/**
 * How well a command fits what was typed after "/", as Discord's menu filters: 0 when each
 * typed word begins the command's word at its place ("s6 r" for "s6 rotate", "sta m" for
 * "stats me"), 1 when the typed text is anywhere in its name ("rot"), -1 when it does not fit.
 * Names are read both as the reader's language shows them and as the bot registered them.
 */
function fit(leaf, typed) {
  const query = typed.trim().toLowerCase();
  if (!query) return 0;
  const words = query.split(/\s+/);
  const names = [leaf.label.toLowerCase(), leaf.command.toLowerCase()];
  const begins = (name) => {
    const parts = name.split(" ");
    return words.length <= parts.length && words.every((word, i) => parts[i].startsWith(word));
  };
  if (names.some(begins)) return 0;
  return names.some((name) => name.includes(query)) ? 1 : -1;
}

/** A popup list (commands or choices) driven from a text input with the keyboard or mouse. */
function listbox(ul) {
  const box = { items: [], active: -1, pick: null, input: null };
  ul.addEventListener("mousedown", (event) => event.preventDefault()); // keep focus in the input
  ul.addEventListener("click", (event) => {
    const li = event.target.closest("li[data-index]");
    if (li) box.pick(Number(li.dataset.index));
  });
  box.setActive = (index) => {
    box.active = index;
    box.items.forEach((li, i) => li.setAttribute("aria-selected", String(i === index)));
    box.items[index]?.scrollIntoView({ block: "nearest" });
    if (index >= 0) box.input.setAttribute("aria-activedescendant", box.items[index].id);
    else box.input?.removeAttribute("aria-activedescendant");
  };
  box.open = (items, input, pick, active, emptyText) => {
    Object.assign(box, { items, input, pick });
    items.forEach((li, i) => {
      li.id = `${ul.id}-${i}`;
      li.dataset.index = String(i);
      li.setAttribute("role", "option");
    });
    ul.replaceChildren(...(items.length ? items : [el("li", "empty", emptyText)]));
    ul.hidden = false;
    input.setAttribute("aria-controls", ul.id);
    input.setAttribute("aria-expanded", "true");
    box.setActive(items.length ? active : -1);
  };
  box.close = () => {
    ul.hidden = true;
    ul.replaceChildren();
    box.items = [];
    box.setActive(-1);
    box.input?.setAttribute("aria-expanded", "false");
  };
  /** Arrows move, Enter/Tab pick, Escape closes; true when the key was used here. */
  box.key = (event) => {
    const n = box.items.length;
    if (ul.hidden) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const next = event.key === "ArrowDown" ? box.active + 1 : (box.active < 0 ? n : box.active) - 1;
      if (n) box.setActive((next + n) % n);
    } else if ((event.key === "Enter" || event.key === "Tab") && box.active >= 0) {
      box.pick(box.active);
      if (event.key === "Tab") return true; // and focus moves on, as Tab does
    } else if (event.key === "Escape") box.close();
    else return false;
    event.preventDefault();
    return true;
  };
  return box;
}

/**
 * Wires the composer. `ctx` gives the current person, channel and view, and `api(path, body)`
 * which resolves to `{status, data}`.
 */
export function initComposer(ctx) {
  const input = $("composer");
  const form = $("command-form");
  const fields = form.querySelector(".option-fields");
  const sendButton = $("send-command");
  const menu = listbox($("command-menu"));
  const choices = listbox($("choices"));
  let current = null; // the leaf command the form is filled for
  let autocompleteTimer = 0;
  let autocompleteSeq = 0;

  const showError = (text) => {
    $("composer-error").textContent = text;
    $("composer-error").hidden = !text;
  };

  function openMenu() {
    // Every command that fits, best first, each group in the tree's order; the list scrolls.
    const typed = input.value.slice(1);
    const matches = leaves(ctx.view().commands)
      .map((leaf) => ({ leaf, rank: fit(leaf, typed) }))
      .filter(({ rank }) => rank >= 0)
      .sort((a, b) => a.rank - b.rank)
      .map(({ leaf }) => leaf);
    const items = matches.map((leaf) => {
      const li = el("li", "command-item");
      li.dataset.command = leaf.command;
      li.append(el("span", "command-name", `/${leaf.label}`), el("span", "command-description", leaf.description));
      li.append(el("span", "command-app", ctx.view().bot.name));
      return li;
    });
    menu.open(items, input, (i) => openForm(matches[i]), 0, t("noCommands"));
  }

  function openForm(leaf) {
    menu.close();
    showError("");
    current = leaf;
    form.dataset.command = leaf.command;
    form.querySelector(".form-command").textContent = `/${leaf.label}`;
    form.querySelector(".form-command").title = leaf.description;
    form.querySelector(".option-help").textContent = leaf.description;
    fields.replaceChildren(...leaf.options.map(optionField));
    form.hidden = false;
    input.hidden = true;
    (fields.querySelector(".option-input") || sendButton).focus();
  }

  function closeForm() {
    choices.close();
    current = null;
    form.hidden = true;
    delete form.dataset.command;
    fields.replaceChildren();
    input.hidden = false;
    input.value = "";
    input.focus();
  }

  function optionField(option) {
    const field = el("div", "option-field");
    field.dataset.option = option.name;
    const id = `option-${option.name}`;
    const label = el("label", "", option.label || option.name);
    label.htmlFor = id;
    label.append(el("span", option.required ? "required" : "optional", option.required ? " *" : t("optional")));
    const box = el("input", "option-input");
    Object.assign(box, { id, type: "text", autocomplete: "off", title: option.description || "" });
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-autocomplete", "list");
    if (option.required) box.required = true;
    if (["integer", "number"].includes(option.type)) box.inputMode = "decimal";
    box.addEventListener("focus", () => {
      form.querySelector(".option-help").textContent = `${option.label || option.name}: ${option.description || ""}`;
      offerChoices(option, box);
    });
    box.addEventListener("input", () => {
      delete box.dataset.value;
      offerChoices(option, box);
    });
    box.addEventListener("blur", () => {
      if (choices.input === box) choices.close();
    });
    box.addEventListener("keydown", (event) => {
      if (choices.key(event)) return;
      if (event.key === "ArrowDown") offerChoices(option, box);
    });
    field.append(label, box);
    return field;
  }

  /** The fixed choices an option has: its own, or those its type implies. */
  function fixedChoices(option) {
    const view = ctx.view();
    if (option.choices?.length) return option.choices.map((c) => ({ value: String(c.value), label: c.label ?? String(c.value) }));
    if (option.type === "boolean") return [{ value: "true", label: t("yes") }, { value: "false", label: t("no") }];
    if (option.type === "role") return [{ id: view.guild.id, name: "@everyone" }, ...(view.roles || [])].map((r) => ({ value: r.id, label: r.name.startsWith("@") ? r.name : `@${r.name}` }));
    if (option.type === "user" || option.type === "mentionable") return view.people.map((p) => ({ value: p.id, label: p.name }));
    if (option.type === "channel") return view.channels.map((c) => ({ value: c.id, label: `#${c.name}` }));
    return null;
  }

  function showChoices(box, list) {
    const items = list.slice(0, MAX_CHOICES).map((c) => {
      const li = el("li", "choice", c.label);
      li.dataset.value = c.value;
      return li;
    });
    const pick = (i) => {
      box.value = list[i].label;
      box.dataset.value = list[i].value;
      choices.close();
    };
    choices.open(items, box, pick, box.value ? 0 : -1, t("noOptions"));
  }

  function offerChoices(option, box) {
    const typed = box.value.trim().toLowerCase();
    const fixed = fixedChoices(option);
    if (fixed) {
      showChoices(box, fixed.filter((c) => !typed || c.label.toLowerCase().includes(typed) || c.value.toLowerCase().includes(typed)));
      return;
    }
    if (!option.autocomplete) return;
    clearTimeout(autocompleteTimer);
    const seq = ++autocompleteSeq;
    autocompleteTimer = setTimeout(async () => {
      if (!current) return;
      const { status, data } = await ctx.api("/sandbox/api/autocomplete", {
        person: ctx.person(),
        channel_id: ctx.channelId(),
        command: current.command,
        option: option.name,
        typed: box.value,
        options: filled(option.name),
      });
      if (seq !== autocompleteSeq || document.activeElement !== box) return; // a newer request, or moved on
      if (status !== 200) return showError(data.error || "Autocomplete failed.");
      showChoices(box, (data.choices || []).map((c) => ({ value: String(c.value), label: c.name })));
    }, AUTOCOMPLETE_DELAY_MS);
  }

  /** The value an option field holds, typed as the command's schema says; undefined if empty. */
  function valueOf(option) {
    const box = fields.querySelector(`.option-field[data-option="${CSS.escape(option.name)}"] .option-input`);
    const text = box.value.trim();
    if (!text) return undefined;
    let raw = box.dataset.value;
    if (raw === undefined) {
      const match = (fixedChoices(option) || []).find((c) => [c.label.toLowerCase(), c.value.toLowerCase()].includes(text.toLowerCase()));
      raw = match ? match.value : text;
    }
    if (option.type === "integer" && /^-?\d+$/.test(raw)) return parseInt(raw, 10);
    if (option.type === "number" && raw !== "" && !Number.isNaN(Number(raw))) return Number(raw);
    if (option.type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
    return raw;
  }

  function filled(except) {
    const options = {};
    for (const option of current.options) {
      const value = option.name === except ? undefined : valueOf(option);
      if (value !== undefined) options[option.name] = value;
    }
    return options;
  }

  async function send() {
    if (!current || sendButton.disabled) return;
    const missing = current.options.find((o) => o.required && valueOf(o) === undefined);
    if (missing) {
      showError(t("required", { name: missing.label || missing.name }));
      fields.querySelector(`.option-field[data-option="${CSS.escape(missing.name)}"] .option-input`).focus();
      return;
    }
    choices.close();
    sendButton.disabled = true;
    sendButton.classList.add("loading");
    try {
      const body = { person: ctx.person(), channel_id: ctx.channelId(), command: current.command, options: filled() };
      const { status, data } = await ctx.api("/sandbox/api/command", body);
      if (status === 200 && data.ok) {
        showError("");
        closeForm();
      } else showError(data.error || `The command failed (HTTP ${status}).`);
    } finally {
      sendButton.disabled = false;
      sendButton.classList.remove("loading");
    }
  }

  async function say() {
    const content = input.value.trim();
    if (!content) return;
    input.value = "";
    const { status, data } = await ctx.api("/sandbox/api/say", { person: ctx.person(), channel_id: ctx.channelId(), content });
    if (status !== 200) {
      input.value = content;
      showError(data.error || `The message was not sent (HTTP ${status}).`);
    } else showError("");
  }

  input.addEventListener("input", () => (input.value.startsWith("/") ? openMenu() : menu.close()));
  input.addEventListener("blur", () => menu.close());
  input.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !$("command-menu").hidden) event.preventDefault(); // Tab completes here
    if (menu.key(event)) return;
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      if (input.value.startsWith("/")) showError(t("noCommandMatches", { typed: input.value.trim() }));
      else say();
    } else if (event.key === "Escape") showError("");
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  form.addEventListener("keydown", (event) => event.key === "Escape" && !event.defaultPrevented && closeForm());
  $("cancel-command").addEventListener("click", closeForm);

  return {
    /** The command tree changed (synced, or another language): refresh an open menu. */
    refresh() {
      if (!$("command-menu").hidden) openMenu();
    },
    /** A command mention was clicked: that command's form, as Discord fills in the command. */
    open(command) {
      const leaf = leaves(ctx.view().commands).find((l) => l.command === command || l.command.startsWith(`${command} `));
      if (!leaf) return showError(t("notOffered", { command }));
      if (current) closeForm();
      openForm(leaf);
    },
    /** Another channel or person: start clean, with a placeholder that names the place. */
    reset(placeholder) {
      if (current) closeForm();
      menu.close();
      showError("");
      input.value = "";
      input.placeholder = placeholder;
      input.setAttribute("aria-label", placeholder);
    },
  };
}
