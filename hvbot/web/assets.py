"""The page's script and style, served as files of their own (`/live.js`, `/live.css`): the
Content-Security-Policy then allows scripts and styles from the bot's own address only, and
nothing inline.

The script follows the game's server-sent events (`EventSource` reconnects by itself, until
the game is over) and
writes every word with `textContent`, never as HTML. The clock counts down in the browser
from the deadline each update gives, against the bot's own time sent with it (so a browser
whose clock is off still counts right). After each update it marks the body with the version
shown and when it was shown (`data-version`, `data-shown-at`, milliseconds since the epoch).
"""

from __future__ import annotations

SCRIPT = r""""use strict";
(() => {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const clock = $("clock");
  const live = $("live");
  let offset = Number(body.dataset.now) - Date.now();  // the bot's time less the browser's
  const pad = (n) => String(n).padStart(2, "0");

  function tick() {
    if (!clock.dataset.deadline) {
      clock.hidden = true;
      return;
    }
    const left = Math.max(0, Number(clock.dataset.deadline) - (Date.now() + offset));
    const s = Math.floor(left / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    const shown = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s % 60);
    clock.hidden = false;
    clock.dataset.left = String(s);
    clock.textContent = clock.dataset.label + " " + shown;
  }

  function item(text, current) {
    const li = document.createElement("li");
    li.textContent = text;
    if (current) {
      li.className = "to-move";
      li.setAttribute("aria-current", "true");
    }
    return li;
  }

  function show(board) {
    if (Number(body.dataset.version) > board.version) return;  // an older one, late
    const picture = $("picture");
    picture.src = board.picture;
    picture.alt = board.alt;
    $("seats").replaceChildren(...board.seats.map((s) => item(s.name, s.to_move)));
    $("turn").textContent = board.turn;
    $("scores").textContent = board.scores;
    $("result").textContent = board.result || "";
    $("result-box").hidden = !board.result;
    const moves = $("moves");
    moves.replaceChildren(...board.moves.map((m) => item(m, false)));
    if (!board.moves.length) {
      moves.replaceChildren(item(moves.dataset.none, false));
      moves.firstChild.className = "none";
    }
    $("text-board").replaceChildren(...board.text_board.map((lines) => {
      const pre = document.createElement("pre");
      pre.textContent = lines.join("\n");
      return pre;
    }));
    clock.dataset.deadline = board.deadline === null ? "" : String(board.deadline);
    tick();
    body.dataset.version = String(board.version);
    body.dataset.shownAt = String(performance.timeOrigin + performance.now());
  }

  const source = new EventSource(body.dataset.events);
  source.onopen = () => { live.textContent = live.dataset.live; };
  source.onerror = () => { live.textContent = live.dataset.away; };
  source.onmessage = (event) => {
    const message = JSON.parse(event.data);
    offset = message.now - Date.now();
    show(message.board);
    if (message.board.over) source.close();  // the result: nothing more will come
  };
  tick();
  setInterval(tick, 250);
})();
"""

STYLE = """body { font-family: system-ui, sans-serif; margin: 0; background: #1e1f22;
  color: #e6e6e6; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; }
h2 { font-size: 1.1rem; margin-bottom: 0.3rem; }
figure { margin: 0; }
#picture { max-width: 100%; height: auto; }
#live { color: #9aa0a6; font-size: 0.9rem; }
#clock { font-variant-numeric: tabular-nums; font-weight: bold; }
.to-move { font-weight: bold; }
.to-move::after { content: " \\25C0"; }
pre { white-space: pre-wrap; background: #2b2d31; padding: 0.5rem; }
"""
