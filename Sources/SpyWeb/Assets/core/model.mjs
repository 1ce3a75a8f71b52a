// The page's whole state, declared once: `{ seats, watch, ui }`. `seats` are the seats this page plays (the first
// one is the page's own; more make it a pass-and-play page), each folded by the one reducer (seat.mjs); `watch` is
// a public-only seat while the page waits for a running game to end, and the board is a page whose only seat is
// public-only. `receive` folds a seat's message into the model and draws the consequences for the page (the next
// seat taking the first place, the claim question, joining when the watched game ends). Pure, like the reducer.
import { line, say } from "../strings.mjs";
import { canVote, inGame, isModerator, nameOf } from "./game.mjs";
import { privateMoments } from "./moments.mjs";
import { newSeat, update } from "./seat.mjs";

/** The model of a page that has not heard from the host yet. */
export function initialModel({ board = false, lang = "en", stored = [], lastName = "", roomParam = "", password = "" } = {}) {
  let nextKey = 1;
  const seats = [];
  if (board) {
    const hello = { type: "hello", protocol: 1, name: "", watch: true };
    if (/^[A-Z]{4}$/.test(roomParam)) hello.room = roomParam;
    if (password) hello.password = password;
    seats.push(newSeat({ key: nextKey++, watch: true, hello }));
  } else {
    // The device's seats in the same room as its first one come back together (a reload, a new tab).
    const [first] = stored;
    for (const kept of stored) {
      if (first.room && kept.room && kept.room !== first.room) continue;
      seats.push(newSeat({ key: nextKey++, token: kept.token, id: kept.id || null, name: kept.name || "", opened: Boolean(kept.opened), seen: kept.seen || 0, wasOwner: Boolean(kept.owner) }));
    }
    if (seats.length === 0) seats.push(newSeat({ key: nextKey++ }));
  }
  return {
    board,
    seats,
    watch: null,
    nextKey,
    ui: {
      lang,
      join: { name: stored.length > 0 ? stored[0].name || lastName : lastName, room: roomParam, nameKey: 0, roomShown: Boolean(roomParam) },
      watchProblem: null,
      holding: false, // 忘詞 held down
      recallUntil: 0, // a screen reader's activation of 忘詞 shows the word for a moment
      confirm: null, // the question asked: { kind, key, target, question, yes, no }
      pass: { open: "", forgot: null, ballots: [] }, // the pass screens: the moment opened, the forgot page's step
      // The moderator's screen on a shared page: closed (""), "only the moderator looking?" ("sure"), shown ("open").
      moderator: "",
      addSeat: { open: false, error: null, nameKey: 0 },
      hidden: false, // the page is hidden: nothing private stays drawn
      boardRoom: roomParam,
      qrShown: false, // the board's QR code loaded: the board says "scan or open"
      words: { draft: "", draftKey: 0 }, // the owner's box of pairs: a file read fills it
    },
  };
}

/** The seat of the page with `key` (the watcher too). */
export function seatByKey(model, key) {
  if (model.watch && model.watch.key === key) return model.watch;
  return model.seats.find((seat) => seat.key === key);
}

/** The page's first seat: its door, its room, its events. */
export function firstSeat(model) {
  return model.seats[0];
}

/** More than one seat plays here: every private moment goes behind a pass screen. */
export function sharedPage(model) {
  return model.seats.filter((seat) => seat.joined || seat.token).length > 1;
}

/** `model` with the seat of `key` replaced by `seat`. */
export function withSeat(model, seat) {
  if (model.watch && model.watch.key === seat.key) return { ...model, watch: seat };
  return { ...model, seats: model.seats.map((s) => (s.key === seat.key ? seat : s)) };
}

/** A message on the link of the seat `key` (a host message or the link's own news). */
export function receive(model, key, message, now) {
  const seat = seatByKey(model, key);
  if (!seat) return { model, effects: [] };
  const result = update(seat, message, now);
  let next = withSeat(model, result.seat);
  let effects = result.effects.map((effect) => ({ key, ...effect }));
  const isFirst = next.seats[0] && next.seats[0].key === key;
  if (next.watch && next.watch.key === key) {
    ({ model: next, effects } = watched(next, effects));
  } else if (isFirst) {
    ({ model: next, effects } = firstSeatNews(next, result.seat, effects, now));
  } else {
    ({ model: next, effects } = otherSeatNews(next, result.seat, message, effects));
  }
  return settle(next, effects);
}

/** The page's own seat: watching, a claim that ended, the door, or the seat given up. */
function firstSeatNews(model, seat, effects, now) {
  let next = model;
  const out = [];
  for (const effect of effects) {
    if (effect.type === "watch") {
      // A game is running, so the host seats nobody new: the page watches the room and joins when it ends.
      const watch = newSeat({ key: next.nextKey, watch: true, hello: seat.hello });
      next = { ...next, watch, nextKey: next.nextKey + 1, ui: { ...next.ui, watchProblem: null } };
      out.push({ type: "open", key: watch.key });
    } else if (effect.type === "claim_ended" && next.watch) {
      // The claim ended without the seat: the room is still there to watch (or, its game over, to join).
      next = withSeat({ ...next, ui: { ...next.ui, watchProblem: seat.problem } }, { ...seat, problem: null });
      if (gameDone(next.watch.room)) ({ model: next } = stopWatching(next, out));
    } else if (effect.type === "words_kept") {
      // Every line was kept: the box empties, so a second press does not send them again.
      next = { ...next, ui: { ...next.ui, words: { draft: "", draftKey: next.ui.words.draftKey + 1 } } };
    } else if (effect.type === "door") {
      const first = firstSeat(next);
      if (!next.watch && !first.claimPending) out.push({ type: "focus", target: first.needPassword ? "join-password" : first.needRoom ? "join-room" : "join-name" });
    } else {
      out.push(effect);
    }
  }
  if (seat.gone) next = promote(next, seat, out);
  if (seat.suggestedName && seat.suggestedName !== next.ui.join.name) {
    next = { ...next, ui: { ...next.ui, join: { ...next.ui.join, name: seat.suggestedName, nameKey: next.ui.join.nameKey + 1 } } };
  }
  return { model: next, effects: out };
}

/** The first seat is given up: the next seat on the page takes its place, or the page is back at the door. */
function promote(model, gone, effects) {
  const rest = model.seats.filter((s) => s.key !== gone.key);
  if (rest.length > 0) {
    // The device's list puts the new first seat first, so a reload takes it first too.
    if (rest[0].token) effects.push({ type: "first", token: rest[0].token });
    return { ...model, seats: rest };
  }
  const door = newSeat({ key: model.nextKey, problem: gone.problem, hello: gone.hello });
  return { ...model, seats: [door], nextKey: model.nextKey + 1, ui: { ...model.ui, confirm: null } };
}

/** A further seat of the page: one the host would not take (or that is given up) goes, saying why. */
function otherSeatNews(model, seat, message, effects) {
  const refused = !seat.joined && (message.type === "error" || (message.type === "link" && message.status === "closed"));
  if (!seat.gone && !refused) return { model, effects: effects.filter((e) => !["door", "watch", "claim_ended"].includes(e.type)) };
  const why = seat.problem || seat.notice;
  let next = { ...model, seats: model.seats.filter((s) => s.key !== seat.key) };
  const out = effects.filter((e) => !["door", "watch", "claim_ended", "open"].includes(e.type));
  out.push({ type: "close", key: seat.key });
  if (seat.token) out.push({ type: "forget", token: seat.token });
  if (why) {
    const entry = { all: [seat.name, why], sep: ": " };
    next = { ...next, ui: { ...next.ui, addSeat: { ...next.ui.addSeat, error: entry } } };
    if (seat.joined || (message.type === "error" && message.code === "bad_token")) {
      const first = firstSeat(next);
      next = withSeat(next, { ...first, events: [...first.events, entry] });
    }
  }
  return { model: next, effects: out };
}

function gameDone(room) {
  return Boolean(room) && (room.phase === "lobby" || room.phase === "gameOver");
}

/** The watched room: once its game is over the page joins as it was asked to (unless it asks for a seat back). */
function watched(model, effects) {
  const out = effects.filter((e) => !["store", "forget", "announce", "vibrate", "focus", "scroll", "door", "watch"].includes(e.type));
  let next = model;
  if (gameDone(next.watch.room) && !firstSeat(next).claim) ({ model: next } = stopWatching(next, out));
  return { model: next, effects: out };
}

function stopWatching(model, effects) {
  effects.push({ type: "close", key: model.watch.key });
  const first = firstSeat(model);
  effects.push({ type: "open", key: first.key });
  return { model: { ...model, watch: null } };
}

/**
 * What holds after every step, whatever caused it: the vote's question closes once this seat can no longer
 * vote, the forgot page gives way to a private moment, and only the page's own seat speaks and moves the focus
 * (on a pass-and-play page the pass screens place the focus themselves).
 */
export function settle(model, effects) {
  let next = model;
  const confirm = next.ui.confirm;
  if (confirm && confirm.kind === "vote") {
    const seat = seatByKey(next, confirm.key);
    if (!seat || !canVote(seat)) next = { ...next, ui: { ...next.ui, confirm: null } };
  }
  const first = firstSeat(next);
  if (next.ui.moderator && (!moderatorSeat(next) || privateMoments(next).length > 0)) {
    // A player's private moment means the device is in a player's hands: the moderator's screen closes.
    next = { ...next, ui: { ...next.ui, moderator: "" } };
  }
  if (next.ui.pass.forgot && (privateMoments(next).some((moment) => moment.kind !== "clue") || !inGame(first.room))) {
    next = { ...next, ui: { ...next.ui, pass: { ...next.ui.pass, forgot: null } } };
  }
  const shared = sharedPage(next);
  const firstKey = first.key;
  const kept = effects.filter((effect) => {
    if (effect.type === "announce" || effect.type === "vibrate") return effect.key === firstKey || effect.key === undefined;
    if (effect.type === "focus" && (effect.target === "claim-allow" || effect.target === "moderator-accept")) return true;
    if (effect.type === "focus" || effect.type === "scroll") {
      if (effect.key !== undefined && effect.key !== firstKey) return false;
      return !shared || effect.target.startsWith("join-") || effect.target.startsWith("confirm") || effect.target.startsWith("moderator-");
    }
    return true;
  });
  return { model: next, effects: kept };
}

/** The page's seat that is the room's moderator (法官), if one is: its screen shows what only it may see. */
export function moderatorSeat(model) {
  return model.seats.find((seat) => seat.joined && isModerator(seat)) || null;
}

/** The page's seat the owner asks to moderate, if any. */
export function moderatorAsker(model) {
  return model.seats.find((seat) => seat.joined && seat.moderatorAsked) || null;
}

/** The seat whose claim question the page shows, if any. */
export function claimAsker(model) {
  return model.seats.find((seat) => seat.joined && seat.claimAsked) || null;
}

/** The page's title: the room's code when in one. */
export function titleOf(model, table) {
  const room = firstSeat(model).room;
  if (model.board) return room ? `${table.boardTitle} · ${room.room}` : table.boardTitle;
  return room ? `${table.title} · ${room.room}` : `${table.title} · Who Is the Spy`;
}

/** A line naming a player as the first seat knows them (views and intents use it). */
export function nameLine(model, id) {
  return nameOf(firstSeat(model), id);
}

export { line, say };
