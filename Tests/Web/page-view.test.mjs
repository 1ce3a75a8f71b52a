// What a phone shows of the moments a real party trips on, drawn from recorded games: the header's one link state
// while watching a running game, the claim's hint only where its button is, the claim's waiting screen, the tied
// players of a PK told why they do not vote, the hand-over said with why, and the device's card only for a device
// holding more than one seat.
import assert from "node:assert/strict";
import { test } from "node:test";
import { act } from "../../Sources/SpyWeb/Assets/core/intents.mjs";
import { firstSeat, initialModel, receive } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { actionPanel, categoryItems } from "../../Sources/SpyWeb/Assets/views/game-view.mjs";
import { claimableSeats, headerLink } from "../../Sources/SpyWeb/Assets/views/page-view.mjs";
import { deviceSeatsCard } from "../../Sources/SpyWeb/Assets/views/pass-view.mjs";
import { received, transcript } from "./transcripts.mjs";

const L = STRINGS.en;
const party = transcript("party");
const blank = transcript("blank-guess");

/** A late guest's page: turned away by the running game, watching it through the board's recorded messages. */
function lateGuest(until) {
  let { model } = act(initialModel({ lang: "en" }), { type: "join", name: "Cleo B" }, 0);
  model = receive(model, 1, { type: "link", status: "connected", attempt: 0 }, 0).model;
  model = receive(model, 1, received(party, "cleo-late")[0], 0).model;
  // The host closes the refused connection: the page's own link is over, its watching link is live.
  model = receive(model, 1, { type: "link", status: "closed", attempt: 0 }, 0).model;
  const key = model.watch.key;
  model = receive(model, key, { type: "link", status: "connected", attempt: 0 }, 0).model;
  const board = received(party, "board");
  for (const message of board.slice(board.findIndex((m) => m.type === "turn"))) {
    if (until(model, message)) break;
    model = receive(model, key, message, 0).model;
  }
  return model;
}

test("a guest who joins during a game is told they are watching, not that they are disconnected", () => {
  const model = lateGuest((m) => Boolean(m.watch && m.watch.room && m.watch.room.phase === "voting"));
  assert.equal(firstSeat(model).link, "closed");
  assert.deepEqual(headerLink(model, L), { text: L.watchingLink, state: "connected" });
  assert.equal(headerLink(model, STRINGS["zh-TW"]).text, STRINGS["zh-TW"].watchingLink);
  // The watching link dropping (a host restart) is what the header says then, once.
  const dropped = receive(model, model.watch.key, { type: "link", status: "reconnecting", attempt: 2 }, 0).model;
  assert.deepEqual(headerLink(dropped, L), { text: L.link.reconnecting(2), state: "reconnecting" });
});

test("the claim's button and its hint show only for a seat that is away, and asking shows the seat and a cancel", () => {
  const model = lateGuest((m) => Boolean(m.watch && m.watch.room && m.watch.room.phase === "voting"));
  const room = model.watch.room;
  // Everyone at the table is connected (or a bot): no button, so no promise of one.
  const away = room.seats.filter((seat) => !seat.bot && !seat.connected);
  assert.deepEqual(claimableSeats(model).map((s) => s.id), away.map((s) => s.id));
  const gone = { ...model, watch: { ...model.watch, room: { ...room, seats: room.seats.map((s, i) => (i === 0 ? { ...s, connected: false } : s)) } } };
  assert.deepEqual(claimableSeats(gone).map((s) => s.id), room.seats[0].bot ? [] : [room.seats[0].id]);
  // "That's me": the header says what the page waits for, and a cancel takes it back to watching.
  const asked = act(gone, { type: "claim_seat", player: room.seats[0].id }, 0).model;
  assert.equal(headerLink(asked, L).text, L.claimWaitLink);
  assert.deepEqual(claimableSeats(asked), []);
  const cancelled = act(asked, { type: "claim_cancel" }, 0);
  assert.deepEqual(cancelled.effects, [{ type: "close", key: 1 }]);
  assert.equal(firstSeat(cancelled.model).claim, "");
  assert.equal(headerLink(cancelled.model, L).text, L.watchingLink);
});

/** One seat's page fed its recorded messages until `until(model, message)`. */
function onePage(lines, conn, until = () => false) {
  let model = initialModel({ stored: [{ token: `t-${conn}`, name: conn }], lang: "en" });
  for (const l of lines) {
    if (l.conn !== conn || !l.recv) continue;
    if (until(model, l.recv)) break;
    model = receive(model, 1, l.recv, l.at).model;
  }
  return model;
}

test("a tied player in a PK is told the others vote between them and the other tied player", () => {
  const pkVote = (m) => Boolean(firstSeat(m).room && firstSeat(m).room.phase === "voting" && firstSeat(m).room.pk.length > 0);
  const model = onePage(blank, "小明", ((seen) => (m) => (seen ? true : ((seen = pkVote(m)), false)))(false));
  const seat = firstSeat(model);
  assert.ok(seat.room.pk.includes(seat.id));
  assert.equal(actionPanel(model, seat, L).prompt, L.inPk("阿華"));
  assert.equal(actionPanel(model, seat, STRINGS["zh-TW"]).prompt, STRINGS["zh-TW"].inPk("阿華"));
});

test("the hand-over shows on the action card with why, until the next deal", () => {
  const handed = (m, message) => message.type === "deal" && message.game === 2;
  const model = onePage(party, "ben", handed);
  const seat = firstSeat(model);
  const change = received(party, "ben").find((m) => m.type === "owner");
  assert.equal(actionPanel(model, seat, L).ownerNews, L.ownerMoved.other(seat.names[change.player], seat.names[change.previous], "away"));
  const deal = received(party, "ben").find((m) => m.type === "deal" && m.game === 2);
  const next = receive(model, 1, deal, 0).model;
  assert.equal(actionPanel(next, firstSeat(next), L).ownerNews, "");
});

test("game over says who won before what happens next", () => {
  const model = onePage(party, "ben", (m, message) => message.type === "owner");
  const seat = firstSeat(model);
  assert.equal(seat.room.phase, "gameOver");
  const panel = actionPanel(model, seat, L);
  assert.equal(panel.gameOver, true);
  assert.equal(panel.prompt, "");
  assert.equal(panel.promptAfter, L.waitingForStart);
});

test("the device's card lists its seats only when it holds more than one; no empty category is offered", () => {
  const single = onePage(party, "ben", (m, message) => message.type === "deal");
  assert.deepEqual(deviceSeatsCard(single), { list: false, addSeat: true });
  const shared = initialModel({ stored: [{ token: "a", name: "A" }, { token: "b", name: "B" }], lang: "en" });
  assert.equal(deviceSeatsCard(shared).list, true);
  const seat = firstSeat(single);
  const categories = [
    { name: "Food", language: seat.room.settings.language.split("+")[0] === "both" ? "zh-TW" : "zh-TW", pairs: 5, partyPairs: 0 },
    { name: "Party", language: "zh-TW", pairs: 3, partyPairs: 3 },
  ];
  const room = { ...seat.room, settings: { ...seat.room.settings, language: "zh-TW", allowParty: false, categories: [] } };
  const names = categoryItems({ ...seat, room, categories }, L).map((item) => item.props.key);
  assert.deepEqual(names, ["Food"]);
});
