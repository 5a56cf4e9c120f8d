// Discord's markdown subset, rendered to DOM nodes.
//
// Nothing here touches innerHTML: every piece of text becomes a text node, so whatever a bot or a
// person writes is shown as written and never interpreted as HTML. Formatting is recognised on
// the raw text and turned into elements around those text nodes.

import { t } from "./i18n.js";

/**
 * Names and labels the renderer needs to turn ids into words (mentions of people, roles and
 * channels), and a command's path into its name in the reader's language.
 */
export const lookup = { people: new Map(), channels: new Map(), roles: new Map(), commandLabel: (command) => command };

const INLINE = new RegExp(
  [
    String.raw`\\([*_~\x60|\\<>#\[\]()\-])`, // 1 escaped character
    String.raw`\x60\x60([^\x60]+?)\x60\x60|\x60([^\x60\n]+?)\x60`, // 2,3 code
    String.raw`\*\*\*([^*]+?)\*\*\*`, // 4 bold italic
    String.raw`\*\*([\s\S]+?)\*\*(?!\*)`, // 5 bold
    String.raw`__([\s\S]+?)__(?!_)`, // 6 underline
    String.raw`\*([^*\s](?:[^*]*?[^*\s])?)\*`, // 7 italic
    String.raw`\b_([^_\s](?:[^_]*?[^_\s])?)_\b`, // 8 italic
    String.raw`~~([\s\S]+?)~~`, // 9 strike
    String.raw`\|\|([\s\S]+?)\|\|`, // 10 spoiler
    String.raw`\[([^\]\n]+)\]\(<?(https?:\/\/[^\s)>]+)>?\)`, // 11,12 link
    String.raw`<@!?(\d+)>`, // 13 user mention
    String.raw`<@&(\d+)>`, // 14 role mention
    String.raw`<#(\d+)>`, // 15 channel mention
    String.raw`<\/([\w\- ]+):\d+>`, // 16 command mention
    String.raw`<t:(-?\d+)(?::([tTdDfFR]))?>`, // 17,18 timestamp
    String.raw`<a?:(\w+):\d+>`, // 19 custom emoji
    String.raw`(https?:\/\/[^\s<]+[^\s<.,:;"')\]])`, // 20 bare link
  ].join("|"),
  "g",
);

/**
 * A command mention as Discord's client draws it: the command's name in the reader's language
 * (`lookup.commandLabel`), and clickable: a click (or Enter) opens that command in the message
 * box, as Discord fills it in.
 */
export function commandMention(command) {
  const node = el("span", "mention command-mention", `/${lookup.commandLabel(command)}`);
  node.dataset.command = command;
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  return node;
}

/** An element with a class and children (nodes, or strings that become text nodes). */
export function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** A link that can only lead to http(s) pages, opened outside the sandbox tab. */
export function safeLink(url, children) {
  const a = el("a", "link", ...children);
  try {
    const parsed = new URL(url, location.href);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") a.href = parsed.href;
  } catch {
    /* not a URL: leave it as plain text in an anchor without href */
  }
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  return a;
}

/** Discord's timestamp styles (<t:unix:R> and friends) in the reader's language. */
export function formatTimestamp(seconds, style = "f") {
  const date = new Date(seconds * 1000);
  const lang = document.documentElement.lang || undefined;
  if (style === "R") {
    const diff = (date.getTime() - Date.now()) / 1000;
    const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
    const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    for (const [unit, size] of units) {
      if (Math.abs(diff) >= size) return rtf.format(Math.round(diff / size), unit);
    }
    return rtf.format(Math.round(diff), "second");
  }
  const short = { timeStyle: "short" };
  const styles = { t: short, T: { timeStyle: "medium" }, d: { dateStyle: "short" }, D: { dateStyle: "long" } };
  const options = styles[style] || { dateStyle: style === "F" ? "full" : "long", ...short };
  return new Intl.DateTimeFormat(lang, options).format(date);
}

/** Inline formatting of one stretch of text, as a list of nodes. */
export function inline(text) {
  const nodes = [];
  const re = new RegExp(INLINE); // own state: formatting nests, so this is re-entered
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) nodes.push(document.createTextNode(text.slice(last, m.index)));
    last = re.lastIndex;
    nodes.push(inlineNode(m));
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

const WRAPPERS = { 5: "strong", 6: "u", 7: "em", 8: "em", 9: "s" };

/** The node for one match of INLINE, told apart by which of its groups matched. */
function inlineNode(m) {
  const group = m.findIndex((g, i) => i > 0 && g !== undefined);
  const [text, more] = [m[group], m[group + 1]];
  if (WRAPPERS[group]) return el(WRAPPERS[group], "", ...inline(text));
  switch (group) {
    case 1: // an escaped character
    case 19: // a custom emoji: its name, as a client without the picture shows it
      return document.createTextNode(group === 1 ? text : `:${text}:`);
    case 2:
    case 3:
      return el("code", "inline-code", text);
    case 4:
      return el("strong", "", el("em", "", ...inline(text)));
    case 10: {
      const spoiler = el("span", "spoiler", ...inline(text));
      Object.assign(spoiler, { tabIndex: 0, title: t("spoiler") });
      spoiler.addEventListener("click", () => spoiler.classList.add("revealed"));
      return spoiler;
    }
    case 11:
      return safeLink(more, inline(text));
    case 13:
      return el("span", "mention", `@${lookup.people.get(text)?.name ?? "unknown-user"}`);
    case 14:
      return el("span", "mention", `@${(lookup.roles.get(text)?.name ?? "unknown-role").replace(/^@/, "")}`);
    case 15:
      return el("span", "mention", `#${lookup.channels.get(text)?.name ?? "unknown"}`);
    case 16:
      return commandMention(text);
    case 17: {
      const time = el("time", "timestamp-mention", formatTimestamp(Number(text), more || "f"));
      time.dateTime = new Date(Number(text) * 1000).toISOString();
      return time;
    }
    default:
      return safeLink(text, [text]);
  }
}

function lineNodes(lines) {
  return lines.flatMap((line, i) => (i > 0 ? [el("br"), ...inline(line)] : inline(line)));
}

/**
 * Block structure (code blocks, quotes, headings, subtext, lists) of a whole text, as a
 * fragment; inline formatting inside each block.
 */
export function renderMarkdown(text) {
  const fragment = document.createDocumentFragment();
  const parts = String(text ?? "").split(/```/);
  parts.forEach((part, i) => {
    if (i % 2 === 1 && i < parts.length - 1) {
      const body = part.replace(/^[\w+-]*\n/, "").replace(/\n$/, "");
      fragment.append(el("pre", "code-block", el("code", "", body)));
    } else {
      const prose = (i % 2 === 1 ? "```" + part : part).replace(/^\n/, "").replace(/\n$/, "");
      if (prose) fragment.append(renderBlocks(prose));
    }
  });
  return fragment;
}

function renderBlocks(text) {
  const fragment = document.createDocumentFragment();
  let paragraph = [];
  let list = null;
  const flush = () => {
    if (paragraph.length) fragment.append(el("div", "md-line", ...lineNodes(paragraph)));
    paragraph = [];
    list = null;
  };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if ((m = /^>>> ?([\s\S]*)$/.exec(line))) {
      flush();
      fragment.append(el("blockquote", "", ...lineNodes([m[1], ...lines.slice(i + 1)])));
      break;
    } else if ((m = /^> ?(.*)$/.exec(line))) {
      flush();
      const quoted = [m[1]];
      while (i + 1 < lines.length && /^> ?/.test(lines[i + 1])) quoted.push(lines[++i].replace(/^> ?/, ""));
      fragment.append(el("blockquote", "", ...lineNodes(quoted)));
    } else if ((m = /^(#{1,3}) (.+)$/.exec(line))) {
      flush();
      fragment.append(el(`h${m[1].length + 2}`, "md-heading", ...inline(m[2])));
    } else if ((m = /^-# (.+)$/.exec(line))) {
      flush();
      fragment.append(el("small", "subtext", ...inline(m[1])));
    } else if ((m = /^(\s*)[-*] (.+)$/.exec(line))) {
      if (paragraph.length) flush();
      if (!list) fragment.append((list = el("ul", "md-list")));
      list.append(el("li", m[1].length >= 2 ? "nested" : "", ...inline(m[2])));
    } else {
      list = null;
      paragraph.push(line);
    }
  }
  flush();
  return fragment;
}
