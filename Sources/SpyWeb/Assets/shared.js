// Shared by the player page (app.js) and the board (board.js): the choice of the interface language (its
// sentences are in strings.js), the link to the host with its reconnection, and small DOM helpers. No framework, no
// build step: the host serves this file as is.
"use strict";

// Errors after which the host has closed the connection and trying again the same way cannot help.
const FINAL_ERRORS = new Set([
  "protocol_version",
  "hello_required",
  "room_not_found",
  "room_required",
  "room_full",
  "game_in_progress",
  "name_taken",
  "bad_name",
  "wrong_password",
  "bad_token",
  "too_many_rooms",
  "replaced",
  "kicked",
  "claim_invalid",
  "claim_unavailable",
  "claim_busy",
  "claim_refused",
]);

// The interface languages: the key of their sentences (strings.js), their name in themselves for the header's
// menu, and the tag that marks the document (screen readers pronounce it right; the CSS picks the script's fonts).
const INTERFACE_LANGUAGES = [
  { key: "zh-TW", name: "繁體中文", tag: "zh-Hant-TW" },
  { key: "zh-Hans", name: "简体中文", tag: "zh-Hans" },
  { key: "en", name: "English", tag: "en" },
];

const LANGUAGE_KEY = "whoisspy.lang";

/**
 * The interface language a BCP 47 tag asks for, "" when the page does not speak it: a Simplified script or a
 * mainland or Singapore region (zh-CN, zh-SG, zh-Hans-HK), and a bare zh, mean Simplified; a Traditional script or
 * Taiwan, Hong Kong or Macau (zh-TW, zh-HK, zh-MO, zh-Hant) mean Traditional.
 */
function languageOfTag(tag) {
  const parts = String(tag || "")
    .toLowerCase()
    .replace(/_/g, "-")
    .split("-");
  if (parts[0] === "en") return "en";
  if (parts[0] !== "zh") return "";
  if (parts.includes("hans")) return "zh-Hans";
  if (parts.includes("hant") || ["tw", "hk", "mo"].includes(parts[1])) return "zh-TW";
  return "zh-Hans";
}

/**
 * The interface language: `?lang=` in the address (for this page, not remembered), else the player's pick
 * remembered on this device, else the first of the browser's languages (its Accept-Language) that the page speaks,
 * else English.
 */
function initialLanguage() {
  const asked = languageOfTag(new URLSearchParams(location.search).get("lang"));
  if (asked) return asked;
  const picked = rememberedLanguage();
  if (picked) return picked;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const lang = languageOfTag(tag);
    if (lang) return lang;
  }
  return "en";
}

/** The language the player picked on this device, "" when they never did. */
function rememberedLanguage() {
  try {
    let saved = localStorage.getItem(LANGUAGE_KEY);
    if (saved === "zh") {
      // "zh" named Traditional Chinese while it was the only Chinese: the same pick, by its own name.
      saved = "zh-TW";
      localStorage.setItem(LANGUAGE_KEY, saved);
    }
    return INTERFACE_LANGUAGES.some((entry) => entry.key === saved) ? saved : "";
  } catch (_) {
    // Storage can be off (private mode); the browser's language decides.
    return "";
  }
}

/** The player's pick from the menu: remembered on this device, and a `?lang=` that would outrank it dropped. */
function pickLanguage(lang) {
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch (_) {
    // Not remembered; the pick still holds for this page.
  }
  const params = new URLSearchParams(location.search);
  if (params.has("lang")) {
    params.delete("lang");
    const query = params.toString();
    history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
  }
  return applyLanguage(lang);
}

/** Marks the document with the language and returns its sentences. */
function applyLanguage(lang) {
  const entry = INTERFACE_LANGUAGES.find((candidate) => candidate.key === lang) || INTERFACE_LANGUAGES[2];
  document.documentElement.lang = entry.tag;
  return STRINGS[entry.key];
}

/** The header's language menu: every language named in itself (and marked so), `lang` chosen, named in `L`. */
function fillLanguageMenu(menu, lang, L) {
  if (menu.options.length === 0) {
    menu.append(...INTERFACE_LANGUAGES.map(({ key, name, tag }) => el("option", { value: key, lang: tag, text: name })));
  }
  menu.value = lang;
  menu.setAttribute("aria-label", L.languageLabel);
}

/** Fills every element marked `data-text="key"` (and `data-label` for aria-label) from the strings. */
function fillStaticText(L) {
  for (const node of document.querySelectorAll("[data-text]")) {
    node.textContent = L[node.dataset.text];
  }
  for (const node of document.querySelectorAll("[data-setting-label]")) {
    node.textContent = L.settingLabels[node.dataset.settingLabel];
  }
  for (const node of document.querySelectorAll("[data-option-of]")) {
    node.textContent = L[node.dataset.optionOf][node.value];
  }
}

/** A new element with attributes, classes and children; strings become text nodes (never HTML). */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** Whole seconds left on a timer ending at `endsAt` (performance.now() milliseconds). */
function secondsLeft(endsAt) {
  return Math.max(0, Math.ceil((endsAt - performance.now()) / 1000));
}

/**
 * One player's (or watcher's) link to the host over the WebSocket at /ws: one protocol message per text frame.
 *
 * It says hello on every (re)connection, answers the host's pings, pings every 15 s to find a dead link, and when
 * the link drops tries again with a growing pause (0.5 s up to 15 s) for five minutes, the time the host keeps a
 * seat. It stops for good after `bye` `left`/`room_closed` and after errors that a retry cannot fix.
 */
class HostLink {
  constructor({ hello, onMessage, onStatus }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.status = "idle";
    this.attempt = 0;
    this.droppedAt = 0;
    this.stopped = true;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.lastHeard = 0;
    this.pingId = 0;
    document.addEventListener("visibilitychange", () => {
      // A phone that was locked comes back: try at once rather than after the pause.
      if (document.visibilityState === "visible" && !this.stopped && this.status === "reconnecting") {
        this.connectNow();
      }
    });
    window.addEventListener("online", () => {
      if (!this.stopped && this.status === "reconnecting") this.connectNow();
    });
    // A page left for another (and kept by the browser to come back to) lets its seat show as away at once, and
    // takes it back when shown again.
    window.addEventListener("pagehide", (event) => {
      if (event.persisted && !this.stopped) {
        clearTimeout(this.retryTimer);
        clearInterval(this.pingTimer);
        this.detach();
      }
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && !this.stopped) this.connectNow();
    });
  }

  get url() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }

  start() {
    this.stopped = false;
    this.attempt = 0;
    this.droppedAt = 0;
    this.setStatus("connecting");
    this.connectNow();
  }

  /** Ends the link and tries no more. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.detach();
    this.setStatus("closed");
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status, this.attempt);
  }

  detach() {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close();
    } catch (_) {
      // Already closed.
    }
  }

  connectNow() {
    clearTimeout(this.retryTimer);
    this.detach();
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (_) {
      this.dropped();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.lastHeard = performance.now();
      socket.send(JSON.stringify(this.hello()));
    };
    socket.onmessage = (event) => {
      this.lastHeard = performance.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (!message || typeof message.type !== "string") return;
      if (message.type === "ping") {
        this.send({ type: "pong", id: message.id });
        return;
      }
      // A watcher's first message may be its room snapshot; either means the host took the hello.
      if (message.type === "welcome" || (message.type === "room" && this.status !== "connected")) {
        this.attempt = 0;
        this.droppedAt = 0;
        this.setStatus("connected");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.heartbeat(), 15000);
      }
      if (message.type === "error" && FINAL_ERRORS.has(message.code)) this.stopped = true;
      if (message.type === "bye" && message.reason !== "host_closing") this.stopped = true;
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.dropped();
    };
  }

  heartbeat() {
    if (!this.socket) return;
    if (performance.now() - this.lastHeard > 45000) {
      // Nothing for three pings: the link is dead even if the browser has not noticed.
      this.detach();
      this.dropped();
      return;
    }
    this.pingId += 1;
    this.send({ type: "ping", id: this.pingId });
  }

  dropped() {
    clearInterval(this.pingTimer);
    if (this.stopped) {
      this.setStatus("closed");
      return;
    }
    const now = performance.now();
    if (this.droppedAt === 0) this.droppedAt = now;
    if (now - this.droppedAt > 5 * 60 * 1000) {
      this.stopped = true;
      this.setStatus("closed");
      return;
    }
    this.attempt += 1;
    const pause = Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    this.status = "";
    this.setStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connectNow(), pause);
  }
}

/** The seat with `id` in a room snapshot. */
function seatOf(room, id) {
  return room ? room.seats.find((seat) => seat.id === id) : undefined;
}

// Every name a page has seen per player id: a result or a reveal still names a player whose seat is gone.
const knownNames = new Map();

/** Remembers the names of a room snapshot's seats. */
function rememberNames(room) {
  for (const seat of room.seats) knownNames.set(seat.id, seat.name);
}

/** A player's display name: from the room, else the last one seen for that id, else the id. */
function nameOf(room, id) {
  const seat = seatOf(room, id);
  if (seat) return seat.name;
  return knownNames.get(id) || id || "?";
}

/** The small labels after a seat's name: owner, you, bot, away, out and revealed role, voted, turn, score. */
function seatBadges(seat, room, me, L) {
  const badges = [];
  const badge = (text, kind) => el("span", { class: `badge ${kind}`, text });
  if (room.turn === seat.id && room.phase === "describing") badges.push(badge(`▶ ${L.turnMark}`, "turn"));
  if (seat.owner) badges.push(badge(`★ ${L.owner}`, "owner"));
  if (seat.id === me) badges.push(badge(L.you, "me"));
  if (seat.bot) badges.push(badge(L.bot, "bot"));
  if (!seat.connected) badges.push(badge(L.away, "away"));
  if (seat.sittingOut && room.phase !== "lobby") badges.push(badge(L.sittingOut, "away sitting-out"));
  const inGame = room.phase !== "lobby";
  if (inGame && !seat.alive && !seat.sittingOut) badges.push(badge(L.out, "out"));
  if (seat.revealed) badges.push(badge(L.role[seat.revealed], `role role-${seat.revealed}`));
  if (room.phase === "voting" && seat.voted) badges.push(badge(`✓ ${L.voted}`, "voted"));
  if (room.game > 0) badges.push(badge(L.points(seat.score), "score"));
  return badges;
}

/** One list item per seat, in seat order; `extra(seat)` may add controls (the owner's kick button). */
function seatItems(room, me, L, extra) {
  return room.seats.map((seat) => {
    const classes = ["seat"];
    if (room.turn === seat.id && room.phase === "describing") classes.push("is-turn");
    if (room.phase !== "lobby" && !seat.alive && !seat.sittingOut) classes.push("is-out");
    if (seat.id === me) classes.push("is-me");
    if (!seat.connected) classes.push("is-away");
    return el(
      "li",
      { class: classes.join(" "), dataset: { player: seat.id } },
      el("span", { class: "seat-number", text: String(seat.seat) }),
      el("span", { class: "seat-name", text: seat.name }),
      el("span", { class: "badges" }, seatBadges(seat, room, me, L)),
      extra ? extra(seat) : null,
    );
  });
}

/**
 * The clues of the current game, oldest first, with a heading line per round. With `foldBefore`, the rounds before
 * that one are one line each (the board keeps the latest clues on screen).
 */
function clueItems(room, L, foldBefore = 0) {
  const items = [];
  let round = -1;
  for (const clue of room.clues) {
    if (clue.round < foldBefore) {
      if (clue.round !== round) {
        round = clue.round;
        const count = room.clues.filter((other) => other.round === round).length;
        items.push(el("li", { class: "clue-round folded", text: L.roundFolded(round, count) }));
      }
      continue;
    }
    if (clue.round !== round) {
      round = clue.round;
      items.push(el("li", { class: "clue-round", text: L.round(round) }));
    }
    const text = clue.text === undefined ? (room.settings.clueMode === "spoken" ? L.spokenClue : L.passed) : clue.text;
    items.push(
      el(
        "li",
        { class: clue.text === undefined ? "clue no-text" : "clue", dataset: { player: clue.player } },
        el("span", { class: "clue-name", text: nameOf(room, clue.player) }),
        el("span", { class: "clue-text", text }),
      ),
    );
  }
  if (items.length === 0) items.push(el("li", { class: "empty", text: L.noClues }));
  return items;
}

/** "房間 KFRW · 第1局 · 第2輪 · 投票中 · PK" for a header. */
function whereLine(room, L) {
  const parts = [L.room(room.room)];
  if (room.game > 0 && room.phase !== "lobby") parts.push(L.game(room.game));
  if (room.round > 0 && room.phase !== "lobby" && room.phase !== "gameOver") parts.push(L.round(room.round));
  let phase = L.phase[room.phase] || room.phase;
  if (room.pk.length > 0 && (room.phase === "describing" || room.phase === "voting")) phase += " · PK";
  parts.push(phase);
  return parts.join(" · ");
}

/** The lines a closed vote adds: the tally, most votes first, then what happened. */
function resultLines(result, room, L) {
  const lines = [...result.tally]
    .sort((a, b) => b.voters.length - a.voters.length)
    .map((entry) => L.tally(nameOf(room, entry.player), L.list(entry.voters.map((id) => nameOf(room, id)))));
  if (result.outcome === "out") {
    lines.push(L.votedOut(nameOf(room, result.out), result.identity ? L.role[result.identity] : undefined));
  } else if (result.outcome === "pk") {
    lines.push(L.pkEvent(L.list(result.tied.map((id) => nameOf(room, id)))));
  } else {
    lines.push(L.nobodyOut);
  }
  return lines;
}

/** The game-over reveal as list items: each player's role and word, in seat order. */
function revealItems(over, room, me, L) {
  return over.reveal.map((entry) =>
    el(
      "li",
      { class: `reveal-entry role-${entry.role}${entry.player === me ? " is-me" : ""}`, dataset: { player: entry.player } },
      el("span", { class: "reveal-name", text: nameOf(room, entry.player) }),
      el("span", { class: `badge role role-${entry.role}`, text: L.role[entry.role] }),
      el("span", { class: "reveal-word", text: entry.word === undefined ? "" : entry.word }),
    ),
  );
}

/** Who may vote in the vote now open, from a snapshot alone (after a resume, before any `voting`). */
function votersOf(room) {
  const alive = room.seats.filter((seat) => seat.alive).map((seat) => seat.id);
  const others = alive.filter((id) => !room.pk.includes(id));
  return others.length > 0 ? others : alive;
}
