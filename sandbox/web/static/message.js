// How one message is drawn: author, text in Discord's markdown, embeds, pictures, buttons; or,
// for a Components V2 message (`layout`), its containers, sections, texts, galleries,
// separators and buttons, which are then the whole message.
//
// Everything is built as DOM nodes from the message's JSON; no text is ever parsed as HTML.

import { t, tNodes } from "./i18n.js";
import { commandMention, el, formatTimestamp, inline, lookup, renderMarkdown, safeLink } from "./markdown.js";

const AVATAR_COLOURS = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#757e8a"];

/** What drawing needs from the page: a click waiting on the bot, a picture loaded, a command's name. */
export const hooks = { isPending: () => false, imageLoaded: () => {}, commandLabel: (command) => command };

export function initials(name) {
  const words = String(name).split(/\s+/).filter(Boolean);
  return words.length > 1 ? (words[0][0] + words[1][0]).toUpperCase() : String(name).slice(0, 1).toUpperCase();
}

/** A person's avatar: their initials in a circle of a colour their id picks. */
export function avatar(user, className = "avatar") {
  let hash = 0;
  for (const ch of String(user.id)) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const circle = el("div", className, initials(user.name));
  circle.style.background = user.bot ? "#5865f2" : AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
  circle.setAttribute("aria-hidden", "true");
  return circle;
}

function timeLabel(iso) {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return formatTimestamp(date.getTime() / 1000, today ? "t" : "f");
}

/** "Ada used /game new", with the command named in the reader's language. */
function interactionLine({ user, command }) {
  const person = [...lookup.people.values()].find((p) => p.name === user) || { id: user, name: user };
  const used = commandMention(command);
  return el("div", "interaction-line", avatar(person, "avatar tiny"), ...tNodes("used", { who: el("span", "who", user), command: used }));
}

/** One message as Discord draws it: header, text, embeds, pictures, buttons, ephemeral note. */
export function messageElement(m) {
  const node = el("div", "message");
  node.json = JSON.stringify(m);
  Object.assign(node.dataset, { messageId: m.id, visibility: m.visibility, authorId: m.author.id, time: m.timestamp });
  node.classList.toggle("ephemeral", m.visibility === "ephemeral");
  node.classList.toggle("thinking", Boolean(m.thinking));
  if (m.interaction) node.append(interactionLine(m.interaction));
  const time = el("time", "time", timeLabel(m.timestamp));
  time.dateTime = m.timestamp;
  time.title = formatTimestamp(Date.parse(m.timestamp) / 1000, "F");
  const header = el("div", "message-header", el("span", "author", m.author.name), m.author.bot ? el("span", "bot-tag", "APP") : null, time);
  const body = el("div", "message-body", header);
  if (m.thinking) {
    body.append(el("div", "content thinking-text", t("thinking", { name: m.author.name }), el("span", "dots", "…")));
  } else if (m.content) {
    const content = el("div", "content", renderMarkdown(m.content));
    if (m.edited) (content.lastElementChild?.matches(".md-line") ? content.lastElementChild : content).append(el("span", "edited", t("edited")));
    body.append(content);
  }
  if (m.layout) {
    // Its files show only where its layout shows them, as in Discord.
    if (!m.thinking) body.append(layoutElement(m));
  } else {
    const embedded = new Set();
    // An embed's picture sent as an attachment keeps that attachment's alt text.
    const alts = new Map((m.attachments || []).filter((a) => a.description).map((a) => [a.url, a.description]));
    for (const embed of m.embeds || []) {
      for (const part of [embed.image, embed.thumbnail]) if (part?.url) embedded.add(part.url);
      body.append(embedElement(embed, alts));
    }
    for (const attachment of m.attachments || []) if (!embedded.has(attachment.url)) body.append(attachmentElement(attachment));
    if (m.components?.length) body.append(componentsElement(m));
  }
  if (m.visibility === "ephemeral") {
    const dismiss = el("button", "link-button", t("dismiss"));
    dismiss.type = "button";
    dismiss.dataset.dismiss = m.id;
    body.append(el("div", "ephemeral-note", `${t("onlyYou")} · `, dismiss));
  }
  node.append(avatar(m.author), body);
  return node;
}

function picture(url, className, alt, width, height) {
  const img = el("img", className);
  Object.assign(img, { src: url, alt: alt || "", tabIndex: 0 });
  if (width && height) Object.assign(img, { width, height });
  img.addEventListener("load", hooks.imageLoaded);
  return img;
}

function attachmentElement(a) {
  if ((a.content_type || "").startsWith("image/")) return picture(a.url, "attachment-image", a.description || a.filename, a.width, a.height);
  return el("div", "attachment-file", safeLink(a.url, [a.filename]));
}

function colourOf(value) {
  return typeof value === "number" ? `#${value.toString(16).padStart(6, "0")}` : "";
}

function embedElement(e, alts = new Map()) {
  const box = el("article", "embed");
  box.style.borderLeftColor = colourOf(e.color);
  const main = el("div", "embed-main");
  if (e.author?.name) {
    const name = e.author.url ? safeLink(e.author.url, [e.author.name]) : e.author.name;
    main.append(el("div", "embed-author", e.author.icon_url ? picture(e.author.icon_url, "embed-author-icon") : null, name));
  }
  if (e.title) main.append(el("div", "embed-title", e.url ? safeLink(e.url, inline(e.title)) : el("span", "", ...inline(e.title))));
  if (e.description) main.append(el("div", "embed-description", renderMarkdown(e.description)));
  if (e.fields?.length) main.append(fieldsElement(e.fields, e.thumbnail?.url ? 2 : 3));
  if (e.image?.url) main.append(picture(e.image.url, "embed-image", alts.get(e.image.url) || e.title || "", e.image.width, e.image.height));
  box.append(main);
  if (e.thumbnail?.url) box.append(picture(e.thumbnail.url, "embed-thumbnail", alts.get(e.thumbnail.url) || "", e.thumbnail.width, e.thumbnail.height));
  if (e.footer?.text || e.timestamp) {
    const parts = [e.footer?.text, e.timestamp ? timeLabel(e.timestamp) : null].filter(Boolean).join(" • ");
    box.append(el("div", "embed-footer", e.footer?.icon_url ? picture(e.footer.icon_url, "embed-footer-icon") : null, parts));
  }
  return box;
}

/** Inline fields sit side by side, up to `perRow` in a row, the others take the whole row. */
function fieldsElement(fields, perRow) {
  const grid = el("div", "embed-fields");
  let row = [];
  const flush = () => {
    row.forEach((node) => (node.style.gridColumn = `span ${12 / row.length}`));
    row = [];
  };
  for (const field of fields) {
    const node = el("div", "embed-field", el("div", "embed-field-name", ...inline(field.name)), el("div", "embed-field-value", renderMarkdown(field.value)));
    grid.append(node);
    if (!field.inline) {
      flush();
      node.style.gridColumn = "1 / -1";
      continue;
    }
    row.push(node);
    if (row.length === perRow) flush();
  }
  flush();
  return grid;
}

function componentsElement(m) {
  const wrap = el("div", "components");
  for (const row of m.components) {
    const line = el("div", "component-row");
    for (const c of row.type === 1 ? row.components || [] : [row]) {
      if (c.type === 2) line.append(buttonElement(m.id, c));
      else line.append(el("div", "component-unsupported", c.placeholder || t("unsupportedMenu")));
    }
    wrap.append(line);
  }
  return wrap;
}

/** A Components V2 message: its top-level components, one under the other. */
function layoutElement(m) {
  const wrap = el("div", "layout");
  for (const c of m.components || []) wrap.append(layoutPart(m, c));
  return wrap;
}

/** One layout component as Discord draws it (Component Reference, by type). */
function layoutPart(m, c) {
  switch (c.type) {
    case 17: {
      // A container: a box, with its accent colour as a bar down its left side.
      const box = el("div", "layout-container", ...(c.components || []).map((child) => layoutPart(m, child)));
      const accent = colourOf(c.accent_color);
      if (accent) {
        box.classList.add("accented");
        box.style.setProperty("--accent", accent);
        box.dataset.accentColor = accent;
      }
      box.classList.toggle("spoiler-box", Boolean(c.spoiler));
      return box;
    }
    case 9: {
      // A section: its texts, and beside them its accessory (a button or a thumbnail).
      const texts = el("div", "layout-section-texts", ...(c.components || []).map((child) => layoutPart(m, child)));
      return el("div", "layout-section", texts, el("div", "layout-accessory", c.accessory ? layoutPart(m, c.accessory) : null));
    }
    case 10:
      return el("div", "layout-text content", renderMarkdown(c.content || ""));
    case 11:
      return mediaElement(c.media, "layout-thumbnail", c.description, c.spoiler);
    case 12: {
      const items = c.items || [];
      const gallery = el("div", `layout-gallery count-${Math.min(items.length, 10)}`);
      for (const item of items) gallery.append(mediaElement(item.media, "gallery-image", item.description, item.spoiler));
      return gallery;
    }
    case 13:
      return el("div", "attachment-file layout-file", safeLink(c.file?.url || "", [c.name || c.file?.url || ""]));
    case 14: {
      const line = el("div", `layout-separator spacing-${c.spacing === 2 ? "large" : "small"}`);
      line.classList.toggle("divider", c.divider !== false);
      line.setAttribute("role", "separator");
      return line;
    }
    case 1: {
      const row = el("div", "component-row");
      for (const child of c.components || []) {
        if (child.type === 2) row.append(buttonElement(m.id, child));
        else row.append(el("div", "component-unsupported", child.placeholder || t("unsupportedMenu")));
      }
      return row;
    }
    case 2:
      return buttonElement(m.id, c);
    default:
      return el("div", "component-unsupported", t("unsupportedMenu"));
  }
}

/** A picture of a layout with its alt text: read out as the image's alt, and marked "ALT" as
 *  Discord marks a described picture, which shows the text when hovered. */
function mediaElement(media, className, description, spoiler) {
  const frame = el("figure", `layout-media ${className}-frame`);
  frame.append(picture(media?.url || "", className, description || "", media?.width, media?.height));
  if (description) {
    const badge = el("span", "alt-badge", "ALT");
    badge.title = description;
    frame.append(badge);
  }
  frame.classList.toggle("spoiler-box", Boolean(spoiler));
  return frame;
}

function buttonElement(messageId, c) {
  const emoji = c.emoji ? (c.emoji.id ? `:${c.emoji.name}:` : c.emoji.name) : null;
  const label = [emoji, c.label].filter(Boolean).join(" ");
  if (c.style === 5) {
    const link = safeLink(c.url, [label, el("span", "external", " ↗")]);
    link.className = "component-button style-5";
    return link;
  }
  const button = el("button", `component-button style-${c.style || 2}`, label);
  button.type = "button";
  button.dataset.customId = c.custom_id;
  button.dataset.disabled = String(Boolean(c.disabled));
  button.disabled = Boolean(c.disabled);
  if (hooks.isPending(messageId, c.custom_id)) busy(button, true);
  return button;
}

/** A button waiting for the bot's answer to its press: a spinner, and no second press. */
export function busy(button, on) {
  button.classList.toggle("loading", on);
  button.disabled = on || button.dataset.disabled === "true";
  button.toggleAttribute("aria-busy", on);
  button.querySelector(".spinner")?.remove();
  if (on) button.append(el("span", "spinner"));
}
