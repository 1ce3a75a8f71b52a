// The player page's game panel drawn from recorded games: the word card (shown once, then held to see), the
// prompt and the parts of the panel for each phase, the ballot buttons, the reveal, the owner's kick buttons and
// category picks, and a shared page keeping every private part off the common screen.
import assert from "node:assert/strict";
import { test } from "node:test";
import { act } from "../../Sources/SpyWeb/Assets/core/intents.mjs";
import { firstSeat, initialModel, receive } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { privateMoments } from "../../Sources/SpyWeb/Assets/core/moments.mjs";
import { STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { actionPanel, categoryItems, gameOverPanel, seatExtras, timerText, voteItems, wordCard } from "../../Sources/SpyWeb/Assets/views/game-view.mjs";
import { transcript } from "./transcripts.mjs";

const L = STRINGS.en;
const typed = transcript("typed-bots");
const blank = transcript("blank-guess");

/**
 * A page whose seats are `seats` (each a list of one seat's connections, in turn) fed their recorded messages
 * until `until(model, line)`; returns the model and the time of the last message.
 */
function page(lines, seats, until = () => false) {
  const stored = seats.map((conns) => ({ token: `t-${conns[0]}`, name: conns[0] }));
  let model = initialModel({ stored, lang: "en" });
  const keyOf = new Map(seats.flatMap((conns, i) => conns.map((conn) => [conn, model.seats[i].key])));
  let at = 0;
  for (const l of lines) {
    if (!keyOf.has(l.conn) || !l.recv) continue;
    if (until(model, l)) break;
    model = receive(model, keyOf.get(l.conn), l.recv, l.at).model;
    at = l.at;
  }
  return { model, at };
}

const phaseIs = (phase) => (model) => Boolean(firstSeat(model).room && firstSeat(model).room.phase === phase);
const turnOf = (model) => phaseIs("describing")(model) && firstSeat(model).room.turn;
const recvType = (type) => (model, l) => l.recv.type === type;
const after = (predicate) => {
  let seen = false;
  return (model, l) => {
    if (seen) return true;
    seen = predicate(model, l);
    return false;
  };
};

test("the word shows once it is dealt, goes when hidden, and comes back only while held or just recalled", () => {
  const { model, at } = page(typed, [["amy", "amy-2"]], phaseIs("voting"));
  const seat = firstSeat(model);
  const dealt = seat.dealt;
  assert.ok(dealt && !dealt.blank);
  const fresh = wordCard(model, seat, L, at);
  assert.deepEqual([fresh.shown, fresh.text, fresh.hideShown, fresh.forgotShown], [true, L.yourWord(dealt.word), true, false]);

  let hidden = act(model, { type: "hide_word" }, at).model;
  const card = wordCard(hidden, firstSeat(hidden), L, at);
  assert.deepEqual([card.shown, card.text, card.visible, card.hideShown, card.forgotShown], [true, "", false, false, true]);

  const held = act(hidden, { type: "hold", on: true }, at).model;
  const holding = wordCard(held, firstSeat(held), L, at);
  assert.deepEqual([holding.text, holding.holding], [L.yourWord(dealt.word), true]);
  hidden = act(held, { type: "hold", on: false }, at).model;
  assert.equal(wordCard(hidden, firstSeat(hidden), L, at).text, "");

  const recalled = act(hidden, { type: "recall" }, at).model;
  assert.equal(wordCard(recalled, firstSeat(recalled), L, at + 2999).text, L.yourWord(dealt.word));
  assert.equal(wordCard(recalled, firstSeat(recalled), L, at + 3000).text, "");
});

test("the lobby asks the owner to start, and the other players to wait", () => {
  const { model } = page(typed, [["amy", "amy-2"]], recvType("deal"));
  const seat = firstSeat(model);
  assert.equal(seat.room.phase, "lobby");
  const owner = actionPanel(model, seat, L);
  assert.equal(owner.lobbyActions, true);
  assert.equal(owner.startLabel, L.start);
  assert.ok(owner.prompt.endsWith(L.ownerCanStart));
  const guestSeat = { ...seat, room: { ...seat.room, seats: seat.room.seats.map((s) => ({ ...s, owner: false })) } };
  const guest = actionPanel(model, guestSeat, L);
  assert.equal(guest.lobbyActions, false);
  assert.ok(guest.prompt.endsWith(L.waitingForStart));
});

test("a typed clue's turn opens the clue box for its player only, and names the player to the others", () => {
  const mine = page(typed, [["amy", "amy-2"]], (model) => turnOf(model) === firstSeat(model).id);
  const seat = firstSeat(mine.model);
  assert.equal(seat.room.turn, seat.id);
  const panel = actionPanel(mine.model, seat, L);
  assert.deepEqual([panel.prompt, panel.clueForm, panel.turnSpoken, panel.voteList], [L.yourTurnTyped, true, false, false]);

  const theirs = page(typed, [["amy", "amy-2"]], (model) => Boolean(turnOf(model)) && turnOf(model) !== firstSeat(model).id);
  const other = firstSeat(theirs.model);
  const waiting = actionPanel(theirs.model, other, L);
  assert.equal(waiting.clueForm, false);
  assert.equal(waiting.prompt, L.turnOf(other.room.seats.find((s) => s.id === other.room.turn).name));
});

test("a vote offers one button per candidate but the voter, and presses the chosen one", () => {
  const { model } = page(typed, [["amy", "amy-2"]], (model) => phaseIs("voting")(model) && Boolean(firstSeat(model).voting));
  const seat = firstSeat(model);
  const panel = actionPanel(model, seat, L);
  assert.deepEqual([panel.voteList, panel.prompt], [true, L.pickVote]);
  const dispatched = [];
  const items = voteItems(seat, L, (intent) => dispatched.push(intent));
  const expected = seat.voting.candidates.filter((id) => id !== seat.id);
  assert.deepEqual(items.map((item) => item.children[0].props.dataset.player).sort(), [...expected].sort());
  assert.ok(items.every((item) => item.children[0].props["aria-pressed"] === "false"));
  items[0].children[0].props.onclick();
  assert.deepEqual(dispatched, [{ type: "vote", target: items[0].props.key }]);

  const chosen = { ...seat, ballot: items[1].props.key };
  const pressed = voteItems(chosen, L, () => {}).filter((item) => item.children[0].props["aria-pressed"] === "true");
  assert.deepEqual(pressed.map((item) => item.props.key), [chosen.ballot]);
  assert.equal(actionPanel(model, chosen, L).prompt, L.ballot(seat.room.seats.find((s) => s.id === chosen.ballot).name));
});

test("the game over names the winner and both words, and the owner plays again", () => {
  const { model } = page(blank, [["小明"]]);
  const seat = firstSeat(model);
  assert.equal(seat.room.phase, "gameOver");
  const over = seat.gameOver;
  const text = gameOverPanel(seat, L);
  assert.deepEqual([text.winner, text.civilianWord, text.spyWord], [L.winner[over.winner], over.civilianWord, over.spyWord]);
  if (over.blankGuess !== undefined) assert.ok(text.blankGuess.includes(over.blankGuess));
  const panel = actionPanel(model, seat, L);
  assert.equal(panel.gameOver, true);
  assert.equal(panel.result, Boolean(seat.result));
  if (panel.lobbyActions) assert.equal(panel.startLabel, L.playAgain);
  // Out of a game the word card and the timer are gone.
  assert.equal(wordCard(model, seat, L, 0).shown, false);
  assert.equal(timerText(seat, L, 0), null);
});

test("a page of four seats keeps every word and ballot off its common screen", () => {
  const table = [["小明"], ["阿華"], ["Amy"], ["老王"]];
  const dealt = page(blank, table, (model) => model.seats.every((s) => s.dealt) && phaseIs("describing")(model));
  assert.equal(wordCard(dealt.model, firstSeat(dealt.model), L, dealt.at).shown, false);
  assert.equal(actionPanel(dealt.model, firstSeat(dealt.model), L).clueForm, false);
  const voting = page(blank, table, after((model) => phaseIs("voting")(model)));
  const panel = actionPanel(voting.model, firstSeat(voting.model), L);
  // None of the device's ballots is cast yet: the panel names whose is next on this device, not "the others".
  const next = privateMoments(voting.model).find((moment) => moment.kind === "vote");
  const voter = voting.model.seats.find((s) => s.key === next.key);
  assert.deepEqual([panel.prompt, panel.voteList], [L.nextBallotHere(voter.name), false]);
  // Its turn is said once, on the pass screen, not again in the panel.
  const turn = page(blank, table, (model) => phaseIs("describing")(model) && model.seats.every((s) => s.dealt));
  assert.equal(actionPanel(turn.model, firstSeat(turn.model), L).prompt, "");
});

test("the owner gets a kick button after every other seat not on this page, nobody else gets one", () => {
  const { model } = page(typed, [["amy", "amy-2"]], recvType("deal"));
  const seat = firstSeat(model);
  const extras = seatExtras(model, seat, L, () => {});
  const buttons = seat.room.seats.map((other) => [other.id, extras(other)]);
  for (const [id, button] of buttons) {
    if (id === seat.id) assert.equal(button, null);
    else assert.equal(button.props["aria-label"], L.kickName(seat.room.seats.find((s) => s.id === id).name));
  }
  const guestSeat = { ...seat, room: { ...seat.room, seats: seat.room.seats.map((s) => ({ ...s, owner: false })) } };
  const guestExtras = seatExtras(model, guestSeat, L, () => {});
  assert.ok(guestSeat.room.seats.every((other) => guestExtras(other) === null));
});

test("the owner's category picks list the bank's categories in the room's word language, the chosen ones checked", () => {
  const { model } = page(typed, [["amy", "amy-2"]], recvType("deal"));
  const seat = firstSeat(model);
  assert.ok(seat.categories.length > 0);
  const language = seat.room.settings.language;
  const items = categoryItems(seat, L);
  const names = items.map((item) => item.props.key);
  assert.ok(names.length > 0);
  assert.ok(names.every((name) => seat.categories.some((c) => c.name === name && (language === "both" ? ["zh-TW", "en"] : language.split("+")).includes(c.language))));
  const picked = { ...seat, room: { ...seat.room, settings: { ...seat.room.settings, categories: [names[0]] } } };
  const checked = categoryItems(picked, L).filter((item) => item.children[0].props.checked).map((item) => item.props.key);
  assert.deepEqual(checked, [names[0]]);
});
