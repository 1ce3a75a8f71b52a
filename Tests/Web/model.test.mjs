// The page's model over recorded games: several seats on one page (pass-and-play), the next seat taking the first
// place, the claim question, watching a running game and joining after it, and the questions the page asks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { act } from "../../Sources/SpyWeb/Assets/core/intents.mjs";
import { claimAsker, firstSeat, initialModel, receive, sharedPage } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { passScreen, privateMoments } from "../../Sources/SpyWeb/Assets/core/moments.mjs";
import { newSeat } from "../../Sources/SpyWeb/Assets/core/seat.mjs";
import { say, STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { received, transcript } from "./transcripts.mjs";

const blank = transcript("blank-guess");
const party = transcript("party");

/** A page holding `conns` (in order) fed their recorded messages; `until(model, line)` stops the replay early. */
function page(lines, conns, until = () => false) {
  const stored = conns.map((conn) => ({ token: `t-${conn}`, name: conn }));
  let model = initialModel({ stored, lang: "en" });
  const keys = Object.fromEntries(conns.map((conn, i) => [conn, model.seats[i].key]));
  const effects = [];
  for (const l of lines) {
    if (!(l.conn in keys) || !l.recv) continue;
    if (until(model, l)) break;
    const result = receive(model, keys[l.conn], l.recv, l.at);
    model = result.model;
    effects.push(...result.effects);
  }
  return { model, keys, effects };
}

const table = ["小明", "阿華", "Amy", "老王"];

test("a page of four seats deals behind pass screens, one word at a time, in seat order", () => {
  const dealtAll = (m) => m.seats.every((seat) => seat.dealt) && m.seats[0].room.phase === "describing";
  const { model } = page(blank, table, dealtAll);
  assert.equal(sharedPage(model), true);
  const moments = privateMoments(model);
  // The words first, in seat order; then the typed clue of the seat whose turn it is.
  assert.deepEqual(moments.map((m) => m.kind), ["word", "word", "word", "word", "clue"]);
  assert.deepEqual(moments.slice(0, 4).map((m) => model.seats.find((s) => s.key === m.key).name), table);
  assert.equal(model.seats.find((s) => s.key === moments[4].key).id, model.seats[0].room.turn);
  let screen = passScreen(model);
  assert.equal(screen.mode, "pass");
  let next = act(model, { type: "pass_open", moment: screen.moment.id }, 0).model;
  screen = passScreen(next);
  assert.equal(screen.mode, "moment");
  assert.equal(screen.seat.name, table[0]);
  const hidden = act(next, { type: "hide_word", key: screen.seat.key }, 0);
  assert.deepEqual(hidden.effects, [{ type: "store", token: screen.seat.token, fields: { seen: screen.seat.dealt.game } }]);
  next = hidden.model;
  assert.equal(passScreen(next).mode, "pass");
  assert.equal(passScreen(next).seat.name, table[1]);
  // The page going hidden closes whatever was open.
  next = act(next, { type: "pass_open", moment: passScreen(next).moment.id }, 0).model;
  next = act(next, { type: "hidden", hidden: true }, 0).model;
  assert.equal(passScreen(next).mode, "none");
  next = act(next, { type: "hidden", hidden: false }, 0).model;
  assert.equal(passScreen(next).mode, "pass");
});

test("on a shared page only the first seat announces, and nothing moves the focus to the word card", () => {
  const { effects } = page(blank, table, (_, l) => l.recv.type === "voting");
  assert.ok(effects.some((e) => e.type === "announce"));
  assert.ok(effects.filter((e) => e.type === "announce" || e.type === "vibrate").every((e) => e.key === 1));
  assert.deepEqual(effects.filter((e) => e.type === "focus" || e.type === "scroll"), []);
});

test("a typed clue, a ballot and the blank's guess wait for their seat's own turn", () => {
  const { model } = page(blank, table, (m, l) => l.recv.type === "vote_progress");
  const seen = model.seats.reduce((m, seat) => act(m, { type: "hide_word", key: seat.key }, 0).model, model);
  const moments = privateMoments(seen);
  assert.ok(moments.length > 0);
  assert.ok(moments.every((m) => m.kind === "vote"));
  const moment = moments[0];
  const voter = seen.seats.find((s) => s.key === moment.key);
  const open = act(seen, { type: "pass_open", moment: moment.id }, 0).model;
  const target = voter.voting.candidates.find((id) => id !== voter.id);
  const asked = act(open, { type: "vote", key: voter.key, target, moment: moment.id }, 0);
  assert.equal(asked.model.ui.confirm.kind, "ballot");
  const voted = act(asked.model, { type: "answer", yes: true }, 0);
  assert.deepEqual(voted.effects, [{ type: "send", key: voter.key, message: { type: "vote", target } }]);
  // The device goes straight on: the ballot is not shown, the next voter's pass screen is.
  assert.ok(!privateMoments(voted.model).some((m) => m.id === moment.id));
  assert.equal(passScreen(voted.model).mode, privateMoments(voted.model).length > 0 ? "pass" : "public");
});

test("the first seat leaving hands the page's first place to the next", () => {
  const { model } = page(blank, table, (_, l) => l.recv.type === "deal");
  const left = receive(model, model.seats[0].key, { type: "bye", reason: "left" }, 0);
  assert.deepEqual(left.model.seats.map((s) => s.name), table.slice(1));
  const second = received(blank, "阿華").find((m) => m.type === "welcome").token;
  assert.ok(left.effects.some((e) => e.type === "first" && e.token === second));
  // The last one leaving leaves the door, with no reason to show.
  let alone = initialModel({ stored: [{ token: "t", name: "A" }] });
  alone = receive(alone, alone.seats[0].key, { type: "bye", reason: "left" }, 0).model;
  assert.equal(alone.seats.length, 1);
  assert.equal(alone.seats[0].token, null);
  assert.equal(alone.seats[0].problem, null);
});

test("a further seat the host refuses goes, and the add form says why", () => {
  const { model } = page(blank, table.slice(0, 1), (_, l) => l.recv.type === "deal");
  let next = act(model, { type: "add_seat", name: "Bo" }, 0);
  assert.deepEqual(next.effects, [{ type: "open", key: next.model.seats[1].key }]);
  const key = next.model.seats[1].key;
  next = receive(next.model, key, { type: "error", code: "game_in_progress", message: "" }, 0);
  assert.equal(next.model.seats.length, 1);
  assert.equal(say(STRINGS.en, next.model.ui.addSeat.error), `Bo: ${STRINGS.en.problem.game_in_progress}`);
  assert.ok(next.effects.some((e) => e.type === "close" && e.key === key));
});

test("the owner is asked about a claim, and the answer goes through the seat that was asked", () => {
  const olive = party.filter((l) => l.conn === "olive");
  let model = initialModel({ lang: "en" });
  for (const l of olive) {
    if (l.recv) model = receive(model, 1, l.recv, l.at).model;
    if (l.recv && l.recv.type === "claim") break;
  }
  assert.equal(claimAsker(model).key, 1);
  const answered = act(model, { type: "answer_claim", allow: true }, 0);
  assert.deepEqual(answered.effects, [{ type: "send", key: 1, message: { type: "claim_answer", player: "p5", allow: true } }]);
  assert.equal(claimAsker(answered.model), null);
});

test("joining during a game watches it, and joins by itself when it ends", () => {
  let { model, effects } = act(initialModel({ lang: "en" }), { type: "join", name: "Cleo B" }, 0);
  assert.deepEqual(effects, [{ type: "remember", name: "Cleo B" }, { type: "open", key: 1 }]);
  ({ model, effects } = receive(model, 1, received(party, "cleo-late")[0], 0));
  assert.ok(model.watch && model.watch.watch);
  assert.deepEqual(effects, [{ type: "open", key: model.watch.key }]);
  const board = received(party, "board");
  const watchKey = model.watch.key;
  let joined = [];
  for (const message of board.slice(board.findIndex((m) => m.type === "turn"))) {
    ({ model, effects } = receive(model, watchKey, message, 0));
    if (!model.watch) {
      joined = effects;
      break;
    }
  }
  assert.deepEqual(joined, [{ type: "close", key: watchKey }, { type: "open", key: 1 }]);
  assert.equal(firstSeat(model).hello.name, "Cleo B");
});

test("the vote's question closes once this seat can no longer vote", () => {
  const seat = newSeat({ key: 1, joined: true, id: "p1", voting: { round: 1, pk: false, candidates: ["p1", "p2"], voters: ["p1", "p2"] } });
  let model = { ...initialModel({ lang: "en" }), seats: [seat] };
  model = act(model, { type: "vote", target: "p2" }, 0).model;
  assert.equal(model.ui.confirm.kind, "vote");
  model = receive(model, 1, { type: "vote_result", round: 1, tally: [], abstained: [], outcome: "nobody", tied: [] }, 0).model;
  assert.equal(model.ui.confirm, null);
  // A leave's question stays through any redraw.
  model = act(model, { type: "leave" }, 0).model;
  model = receive(model, 1, { type: "link", status: "reconnecting", attempt: 1 }, 0).model;
  assert.equal(model.ui.confirm.kind, "leave");
});

test("the board asks for the room its address names, only a room code, and says 'scan' once its QR code shows", () => {
  const named = initialModel({ board: true, roomParam: "KFRW", password: "pw" });
  assert.deepEqual(firstSeat(named).hello, { type: "hello", protocol: 1, name: "", watch: true, room: "KFRW", password: "pw" });
  assert.equal(named.ui.boardRoom, "KFRW");
  const odd = initialModel({ board: true, roomParam: "KF RW" });
  assert.equal("room" in firstSeat(odd).hello, false);
  assert.equal(named.ui.qrShown, false);
  assert.equal(act(named, { type: "qr_shown" }, 0).model.ui.qrShown, true);
});
