// The sandbox page: one person's Discord client against the local emulator.
//
// The server decides what this person may see (their own ephemeral answers and DMs, never
// anyone else's); the page only draws what its WebSocket carries and sends what the person does.

import { initComposer } from "./composer.js";
import { setLanguage, t, tNodes } from "./i18n.js";
import { el, lookup } from "./markdown.js";
import { avatar, busy, hooks, initials, messageElement } from "./message.js";

const $ = (id) => document.getElementById(id);
const GROUP_WINDOW_MS = 7 * 60 * 1000;
const MAX_RETRY_MS = 10000;
const state = {
  view: null,
  person: null, // id of the person this page acts as
  channelId: null,
  socket: null,
  generation: 0, // bumps on every new socket, so an old socket's events and retries are ignored
  retries: 0,
  unread: new Set(),
  dismissed: new Set(), // private answers dismissed here, hidden until the server confirms it
  pendingClicks: new Set(),
  stick: true, // the message list is scrolled to the bottom and follows new messages
  byHand: false, // the person is scrolling the list (wheel, touch, keys, its scrollbar held)
  pointerDown: false,
};

/** POSTs `body` as JSON (or GETs without one); resolves to `{status, data}`, never throws. */
async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  try {
    const response = await fetch(path, init);
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    return { status: response.status, data };
  } catch {
    return { status: 0, data: { error: "The sandbox is not reachable." } };
  }
}

const composer = initComposer({ api, view: () => state.view, person: () => state.person, channelId: () => state.channelId });
/**
 * A command's path ("s6 place") as the reader's Discord client names it: each word by the
 * command tree's localisation in their language, as Discord draws a command mention or
 * "Ada used /s6 pesca"; a word the tree does not have (a command not offered to the reader)
 * stays as registered.
 */
function commandLabel(command) {
  let nodes = state.view?.commands || [];
  return String(command)
    .split(" ")
    .map((word) => {
      const node = nodes.find((n) => n.name === word);
      nodes = node?.options || [];
      return node?.label || word;
    })
    .join(" ");
}
Object.assign(hooks, {
  isPending: (messageId, customId) => state.pendingClicks.has(`${messageId}\n${customId}`),
  imageLoaded: () => state.stick && scrollToBottom(),
  commandLabel,
});
lookup.commandLabel = commandLabel;

function setStatus(text) {
  $("connection-status").textContent = text;
  $("connection-status").hidden = !text;
}

/** Rewrites the address so a reload, or a copy opened in another tab, lands on the same place. */
function remember() {
  const me = state.view?.people.find((p) => p.id === state.person);
  const params = new URLSearchParams({ as: me ? me.name : state.person });
  if (state.channelId) params.set("channel", state.channelId);
  history.replaceState(null, "", `?${params}`);
}

// --- connection -----------------------------------------------------------------------------

/** The person `wanted` names (an id or a name, any case), else the sandbox's first person. */
async function resolvePerson(wanted) {
  if (wanted) {
    const direct = await api(`/sandbox/api/view?person=${encodeURIComponent(wanted)}`);
    if (direct.status === 200) return direct.data.person.id;
  }
  const any = await api("/sandbox/api/view");
  const people = any.data.people || [];
  const named = wanted && people.find((p) => p.id === wanted || p.name.toLowerCase() === wanted.toLowerCase());
  return (named || any.data.person || people[0])?.id ?? null;
}

function connect(personId, channelWanted) {
  const generation = ++state.generation;
  state.socket?.close();
  state.person = personId;
  document.body.dataset.personId = personId;
  document.body.dataset.connected = "false";
  const url = new URL(`/sandbox/ws?person=${encodeURIComponent(personId)}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  state.socket = socket;
  socket.addEventListener("message", (event) => {
    if (generation === state.generation) handle(JSON.parse(event.data), channelWanted);
  });
  socket.addEventListener("close", () => {
    if (generation !== state.generation) return;
    document.body.dataset.connected = "false";
    setStatus(t("reconnecting"));
    const delay = Math.min(MAX_RETRY_MS, 500 * 2 ** state.retries++);
    const name = lookup.people.get(personId)?.name;
    setTimeout(async () => {
      // By name: a sandbox started anew gives its people new ids.
      const again = (name && (await resolvePerson(name))) || personId;
      if (generation === state.generation) connect(again, state.channelId);
    }, delay);
  });
}

function handle(event, channelWanted) {
  const view = state.view;
  if (event.type === "view") return drawView(event, channelWanted);
  if (!view) return;
  if (event.type === "message") upsert(event.message);
  else if (event.type === "delete") remove(event.id, event.channel_id);
  else if (event.type === "channels") {
    view.channels = event.channels;
    updateLookup();
    drawSidebar();
  } else if (event.type === "commands") {
    view.commands = event.commands;
    composer.refresh();
    relabelMentions();
  } else if (event.type === "people") {
    const before = view.person.locale;
    view.people = event.people;
    view.person = event.people.find((p) => p.id === state.person) || view.person; // its language, say
    updateLookup();
    drawSelects();
    drawRoles();
    if (view.person.locale !== before) redrawInLanguage();
  }
}

function drawView(view, channelWanted) {
  delete view.type;
  state.view = view;
  state.retries = 0;
  setStatus("");
  updateLookup();
  drawSelects();
  drawChrome();
  drawRoles();
  $("guild-name").textContent = view.guild.name;
  $("guild-icon").textContent = initials(view.guild.name);
  $("guild-icon").title = view.guild.name;
  const visible = (id) => id && (id === view.dm_channel_id || view.channels.some((c) => c.id === id));
  const wanted = channelWanted === "dm" ? view.dm_channel_id : channelWanted;
  const first = view.channels.find((c) => c.kind === "text") || view.channels[0];
  openChannel([wanted, state.channelId, first?.id].find(visible) || view.dm_channel_id);
  document.body.dataset.connected = "true";
}

function updateLookup() {
  const view = state.view;
  lookup.people = new Map([...view.people, { ...view.bot, bot: true }].map((p) => [p.id, p]));
  lookup.channels = new Map(view.channels.map((c) => [c.id, c]));
  lookup.roles = new Map([[view.guild.id, { id: view.guild.id, name: "@everyone" }], ...(view.roles || []).map((r) => [r.id, r])]);
}

/** The page's fixed words in the reader's language (`i18n.js`), the bot's words aside. */
function drawChrome() {
  setLanguage(state.view.person.locale);
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("composer-hint").replaceChildren(...tNodes("hint", { slash: el("kbd", "", "/") }));
  $("lightbox").setAttribute("aria-label", t("picture"));
  GROUP_LABELS[0].textContent = t("textChannels");
  GROUP_LABELS[1].textContent = t("directMessages");
}

/** The reader switched language: the page's words, and the messages' own, drawn anew. */
function redrawInLanguage() {
  drawChrome();
  if (state.channelId) openChannel(state.channelId);
}

/**
 * The roles dialog: each member of the page, a box for each of the server's roles. Whoever
 * may give roles (the owner, an Admin) ticks them; the others only see who holds what.
 */
function drawRoles() {
  const view = state.view;
  const me = view.people.find((p) => p.id === state.person) || view.person;
  const roles = view.roles || [];
  $("roles-button").hidden = roles.length === 0;
  $("roles-read-only").hidden = Boolean(me.manage_roles);
  const head = el("tr", "", el("th", ""), ...roles.map((r) => el("th", "", r.name)));
  const rows = view.people.map((p) => {
    const name = el("th", "", p.name, p.owner ? el("span", "owner-tag", ` (${t("owner")})`) : null);
    name.scope = "row";
    const cells = roles.map((r) => {
      const box = el("input");
      Object.assign(box, { type: "checkbox", checked: (p.roles || []).includes(r.id), disabled: !me.manage_roles || p.owner });
      Object.assign(box.dataset, { member: p.id, role: r.id });
      box.setAttribute("aria-label", `${p.name}: ${r.name}`);
      return el("td", "", box);
    });
    return el("tr", "", name, ...cells);
  });
  $("roles-table").replaceChildren(el("thead", "", head), el("tbody", "", ...rows));
}

function drawSelects() {
  const view = state.view;
  $("person-select").replaceChildren(...view.people.map((p) => new Option(p.name, p.id, false, p.id === state.person)));
  const locale = view.person.locale;
  $("locale-select").replaceChildren(...view.locales.map((l) => new Option(l.name, l.code, false, l.code === locale)));
  document.documentElement.lang = locale;
}

// --- channels ---------------------------------------------------------------------------------

function channelName(id) {
  if (id === state.view.dm_channel_id) return state.view.bot.name;
  return lookup.channels.get(id)?.name ?? "unknown";
}

const GROUP_LABELS = [el("h2", "group-label", t("textChannels")), el("h2", "group-label", t("directMessages"))];

/**
 * The sidebar, updated in place: a link stays the same element while its channel is listed, so
 * a pointer on it (or a script holding it) is not lost when a message or a thread arrives.
 */
function drawSidebar() {
  const view = state.view;
  const old = new Map([...$("channels").querySelectorAll("a[data-channel-id]")].map((a) => [a.dataset.key, a]));
  const link = (key, id, className, build) => {
    const a = old.get(key) || el("a", className, ...build());
    Object.assign(a.dataset, { key, channelId: id });
    a.href = `?${new URLSearchParams({ as: state.person, channel: id })}`;
    a.classList.toggle("active", id === state.channelId);
    a.toggleAttribute("aria-current", id === state.channelId);
    const unread = state.unread.has(id) && id !== state.channelId;
    a.classList.toggle("unread", unread);
    if (unread && !a.querySelector("span.unread")) a.append(el("span", "unread", el("span", "visually-hidden", t("newMessages"))));
    if (!unread) a.querySelector("span.unread")?.remove();
    return a;
  };
  const links = view.channels.map((c) => {
    const thread = c.kind === "thread";
    const key = `${c.kind}:${c.id}:${c.name}`;
    const a = link(key, c.id, thread ? "channel thread" : "channel", () => [el("span", "channel-icon", thread ? "" : "#"), el("span", "channel-name", c.name)]);
    a.dataset.name = c.name;
    return a;
  });
  const dm = link(`dm:${view.dm_channel_id}`, view.dm_channel_id, "dm-link", () => [avatar({ ...view.bot, bot: true }, "avatar small"), el("span", "channel-name", view.bot.name)]);
  dm.id = "dm-link";
  const wanted = [GROUP_LABELS[0], ...links, GROUP_LABELS[1], dm];
  const nav = $("channels");
  wanted.forEach((node, i) => nav.children[i] !== node && nav.insertBefore(node, nav.children[i] || null));
  while (nav.children.length > wanted.length) nav.lastElementChild.remove();
}

function openChannel(id) {
  state.channelId = id;
  state.unread.delete(id);
  drawSidebar();
  const dm = id === state.view.dm_channel_id;
  const thread = lookup.channels.get(id)?.kind === "thread";
  $("channel-icon").textContent = dm ? "@" : thread ? "⤷" : "#";
  $("channel-title").textContent = channelName(id);
  document.title = `${dm ? "@" : "#"}${channelName(id)} · ${state.view.guild.name}`;
  composer.reset(dm ? t("messageToPerson", { place: `@${channelName(id)}` }) : t("messageTo", { place: `#${channelName(id)}` }));
  drawMessages();
  remember();
}

// --- messages ---------------------------------------------------------------------------------

function drawMessages() {
  const list = (state.view.messages[state.channelId] || []).filter((m) => !state.dismissed.has(m.id));
  const name = channelName(state.channelId);
  const dm = state.channelId === state.view.dm_channel_id;
  const welcome = el(
    "div",
    "channel-welcome",
    el("h3", "", dm ? name : t("welcome", { name })),
    el("p", "", dm ? t("dmStart", { name }) : t("channelStart", { name })),
  );
  resized.disconnect();
  $("messages").replaceChildren(welcome, ...list.map(messageElement));
  for (const node of $("messages").children) resized.observe(node);
  regroup();
  scrollToBottom();
}

/** Consecutive messages by one author within a few minutes share one header, as in Discord. */
function regroup() {
  let previous = null;
  for (const node of $("messages").querySelectorAll(".message")) {
    const grouped =
      previous &&
      !node.querySelector(".interaction-line") &&
      previous.dataset.authorId === node.dataset.authorId &&
      previous.dataset.visibility === node.dataset.visibility &&
      Date.parse(node.dataset.time) - Date.parse(previous.dataset.time) < GROUP_WINDOW_MS;
    node.classList.toggle("grouped", Boolean(grouped));
    previous = node;
  }
}

function nearBottom() {
  const box = $("messages");
  return box.scrollHeight - box.scrollTop - box.clientHeight < 48;
}

function scrollToBottom() {
  const box = $("messages");
  box.scrollTop = box.scrollHeight;
  state.stick = true;
}

/**
 * While the list follows new messages, it stays at the bottom as they grow: a picture gets its
 * height when its first bytes arrive, well before its load event, and a message redrawn (a
 * "thinking" answer edited into a card with buttons) may be taller than before.
 */
const resized = new ResizeObserver(() => state.stick && scrollToBottom());

/**
 * Only the person scrolling stops the list following, told by what they do (the wheel, a
 * touch, a key, the scrollbar held), never by where the list ends up: the page moves the list
 * itself too (scrollToBottom, a message redrawn shorter for a moment while its picture loads,
 * which the browser answers by moving the list up), and those scroll events may come after a
 * picture made the list taller, where they would look like someone scrolling up.
 */
function scrolled() {
  if (nearBottom()) state.stick = true;
  else if (state.byHand) state.stick = false;
  if (!state.pointerDown) state.byHand = false;
}

function scrollingByHand() {
  state.byHand = true;
}

function upsert(message) {
  const list = (state.view.messages[message.channel_id] ||= []);
  const index = list.findIndex((m) => m.id === message.id);
  if (index >= 0) list[index] = message;
  else list.push(message);
  if (state.dismissed.has(message.id)) return;
  if (message.channel_id !== state.channelId) {
    if (index < 0) {
      state.unread.add(message.channel_id);
      drawSidebar();
    }
    return;
  }
  const follow = state.stick || (index < 0 && message.interaction?.user === lookup.people.get(state.person)?.name);
  const old = $("messages").querySelector(`.message[data-message-id="${CSS.escape(message.id)}"]`);
  if (old && old.json === JSON.stringify(message)) return; // nothing to redraw: keep the elements
  const node = messageElement(message);
  if (old) {
    resized.unobserve(old);
    old.replaceWith(node);
  } else $("messages").append(node); // new messages have the newest ids
  resized.observe(node);
  regroup();
  if (follow) scrollToBottom();
}

function remove(id, channelId) {
  const list = state.view.messages[channelId];
  if (list) state.view.messages[channelId] = list.filter((m) => m.id !== id);
  const node = $("messages").querySelector(`.message[data-message-id="${CSS.escape(id)}"]`);
  if (node) {
    resized.unobserve(node);
    node.remove();
  }
  regroup();
}

async function click(button) {
  const message = button.closest(".message");
  const messageId = message.dataset.messageId;
  const customId = button.dataset.customId;
  const key = `${messageId}\n${customId}`;
  state.pendingClicks.add(key);
  busy(button, true);
  const { status, data } = await api("/sandbox/api/click", { person: state.person, message_id: messageId, custom_id: customId });
  state.pendingClicks.delete(key);
  const live = $("messages").querySelector(`.message[data-message-id="${CSS.escape(messageId)}"]`);
  live?.querySelectorAll("button.component-button.loading").forEach((b) => b.dataset.customId === customId && busy(b, false));
  if (status === 200 && data.ok) return;
  live?.querySelector(".message-error")?.remove();
  const note = el("div", "message-error", data.error || "The application did not respond");
  note.setAttribute("role", "alert");
  live?.querySelector(".message-body").append(note);
}

// --- page events ----------------------------------------------------------------------------

$("messages").addEventListener("scroll", scrolled);
for (const type of ["wheel", "touchmove", "keydown"]) $("messages").addEventListener(type, scrollingByHand, { passive: true });
$("messages").addEventListener("pointerdown", () => {
  state.pointerDown = true;
  scrollingByHand();
});
window.addEventListener("pointerup", () => {
  state.pointerDown = false;
  state.byHand = false;
});
$("messages").addEventListener("click", (event) => {
  const button = event.target.closest("button.component-button");
  if (button && !button.disabled) return click(button);
  const dismiss = event.target.closest("button[data-dismiss]");
  if (dismiss) {
    // Gone for good, as Discord forgets a dismissed private answer: the server hides it from
    // this person from now on, after a reload too.
    state.dismissed.add(dismiss.dataset.dismiss);
    api("/sandbox/api/dismiss", { person: state.person, message_id: dismiss.dataset.dismiss });
    resized.unobserve(dismiss.closest(".message"));
    dismiss.closest(".message").remove();
    return regroup();
  }
  const mention = event.target.closest(".command-mention[data-command]");
  if (mention) return composer.open(mention.dataset.command);
  const img = event.target.closest("img.attachment-image, img.embed-image, img.embed-thumbnail, img.gallery-image, img.layout-thumbnail");
  if (img) openLightbox(img);
});
$("messages").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && event.target.matches("img")) openLightbox(event.target);
  if (event.key === "Enter" && event.target.matches(".command-mention[data-command]")) composer.open(event.target.dataset.command);
});

$("roles-button").addEventListener("click", () => {
  $("roles-error").hidden = true;
  $("roles-dialog").showModal();
});
$("roles-table").addEventListener("change", async (event) => {
  const box = event.target.closest("input[data-role]");
  if (!box) return;
  const body = { person: state.person, member: box.dataset.member, role: box.dataset.role, given: box.checked };
  const { status, data } = await api("/sandbox/api/role", body);
  $("roles-error").textContent = status === 200 ? "" : data.error || `HTTP ${status}`;
  $("roles-error").hidden = status === 200;
  if (status !== 200) box.checked = !box.checked;
});

/** The picture at full size over the page; its <img> exists only while it is shown. */
function openLightbox(img) {
  const box = $("lightbox");
  const full = el("img");
  Object.assign(full, { src: img.src, alt: img.alt });
  box.querySelector("img")?.remove();
  box.prepend(full);
  box.querySelector("a").href = img.src;
  box.showModal();
}
$("lightbox").addEventListener("click", (event) => {
  if (!event.target.closest("a")) $("lightbox").close();
});
$("lightbox").addEventListener("close", () => $("lightbox").querySelector("img")?.remove());

$("channels").addEventListener("click", (event) => {
  const link = event.target.closest("a[data-channel-id]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  openChannel(link.dataset.channelId);
});

$("person-select").addEventListener("change", (event) => {
  const inDm = state.channelId === state.view?.dm_channel_id;
  state.unread.clear();
  state.dismissed.clear();
  state.pendingClicks.clear();
  state.view = null;
  connect(event.target.value, inDm ? "dm" : state.channelId);
});

$("locale-select").addEventListener("change", async (event) => {
  const { status, data } = await api("/sandbox/api/locale", { person: state.person, locale: event.target.value });
  if (status !== 200) return setStatus(data.error || "The language could not be changed.");
  state.view.person.locale = event.target.value;
  document.documentElement.lang = event.target.value;
  redrawInLanguage();
});

async function start() {
  const params = new URLSearchParams(location.search);
  setStatus(t("connecting"));
  const person = await resolvePerson(params.get("as"));
  if (!person) return setStatus("The sandbox has nobody to play as: is the server running?");
  connect(person, params.get("channel"));
}

start();
