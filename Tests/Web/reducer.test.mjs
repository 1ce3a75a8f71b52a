// The page's reducer fed games a real spyd played (Tests/Web/transcripts): every message type, the word, votes,
// results, reconnection and `replaced`, claims, the owner hand-over, sitting out, kicks, and the board.
import assert from "node:assert/strict";
import { test } from "node:test";
import { newSeat, update } from "../../Sources/SpyWeb/Assets/core/seat.mjs";
import { canVote, helloFor, holdsWord, isOwner, wordJustDealt } from "../../Sources/SpyWeb/Assets/core/game.mjs";
import { say, STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { effectsOf, received, replay, stepsOf, transcript } from "./transcripts.mjs";

const typed = transcript("typed-bots");
const party = transcript("party");
const blank = transcript("blank-guess");
const sent = (lines, conn) => lines.filter((l) => l.conn === conn && l.send).map((l) => l.send);
const texts = (seat, lang = "en") => seat.events.map((entry) => say(STRINGS[lang], entry));

test("the transcripts hold every message type the host sends, and the reducer takes each", () => {
  const types = new Set([typed, party, blank].flat().filter((l) => l.recv).map((l) => l.recv.type));
  const all = ["welcome", "room", "deal", "turn", "clue", "voting", "vote_progress", "vote_result", "guessing",
    "game_over", "ping", "pong", "error", "bye", "claim_pending", "claim", "claim_done", "owner"];
  assert.deepEqual(all.filter((type) => !types.has(type)), []);
  for (const type of all) {
    const message = [typed, party, blank].flat().find((l) => l.recv && l.recv.type === type).recv;
    const { seat } = update(newSeat(), message, 0);
    assert.equal(typeof seat, "object", type);
  }
});

test("update leaves the seat it is given as it was", () => {
  const { steps } = replay(typed, ["amy", "amy-2"]);
  const frozen = steps.map((step) => JSON.stringify(step.before));
  // Replaying again from the same seats gives the same seats: no step changed the one before it.
  steps.forEach((step, i) => assert.equal(JSON.stringify(step.before), frozen[i]));
  for (const step of steps.slice(1)) assert.notEqual(step.before, step.seat);
});

test("one player and three bots: the word comes only from the deal, and shows until hidden", () => {
  const { seat, steps } = replay(typed, ["amy"]);
  const deal = received(typed, "amy").find((m) => m.type === "deal");
  assert.deepEqual(seat.dealt, { game: deal.game, word: deal.word, blank: false });
  const dealt = stepsOf(steps, "deal")[0];
  assert.ok(wordJustDealt(dealt.seat) && holdsWord(stepsOf(steps, "room").find((s) => s.seat.room.phase !== "lobby").seat));
  // The deal brings the word card into view with the focus on its button.
  assert.deepEqual(dealt.effects, [{ type: "scroll", target: "word-card" }, { type: "focus", target: "hide-word" }]);
  // The host's refusal of a setting is a notice, and the form goes back to what is in force.
  const refused = stepsOf(steps, "error").find((s) => s.message.code === "too_many_spies");
  assert.equal(refused.seat.settingsReset, 1);
  assert.equal(say(STRINGS.en, refused.seat.notice), STRINGS.en.problem.too_many_spies);
  // A clue with the word is refused and the box keeps the focus; the next clue goes through and clears it.
  const hasWord = stepsOf(steps, "error").find((s) => s.message.code === "clue_has_word");
  assert.deepEqual(hasWord.effects, [{ type: "focus", target: "clue-input" }]);
  const mine = stepsOf(steps, "clue").find((s) => s.message.player === seat.id);
  assert.equal(mine.seat.cluesSent, 1);
  assert.equal(mine.seat.notice, null);
  assert.deepEqual(mine.effects, [{ type: "focus", target: "forgot" }]);
  // The welcome stores the seat for the device: token, room, id, and whether the player opened the room.
  const welcome = received(typed, "amy")[0];
  assert.deepEqual(effectsOf(steps, "store")[0], {
    type: "store", token: welcome.token, fields: { room: welcome.room, id: welcome.you, opened: false },
  });
  // The turn timer runs from the message's arrival.
  const turn = stepsOf(steps, "turn").find((s) => s.message.timerMs);
  assert.equal(turn.seat.timer.endsAt, typed.find((l) => l.recv === turn.message || (l.conn === "amy" && l.recv && l.recv.type === "turn")).at + turn.message.timerMs);
});

test("a dropped connection mid-vote resumes with the same word and the ballot it had in", () => {
  const { seat, steps } = replay(typed, ["amy", "amy-2"]);
  const ballot = sent(typed, "amy").find((m) => m.type === "vote").target;
  const back = steps.findIndex((s) => s.message.type === "welcome" && s.message.resumed);
  const drop = steps.findIndex((s) => s.message.type === "link" && s.message.status === "reconnecting");
  assert.ok(drop > 0 && drop < back);
  assert.ok(texts(steps[drop].seat).includes(STRINGS.en.lostHost));
  assert.ok(texts(steps[back].seat).includes(STRINGS.en.reconnected));
  const resumedVote = steps.slice(back).find((s) => s.message.type === "voting");
  assert.equal(resumedVote.seat.ballot, ballot);
  // The deal again after the resume is the same game: no scroll, no focus, the word as it was.
  const again = steps.slice(back).find((s) => s.message.type === "deal");
  assert.deepEqual(again.effects, []);
  assert.deepEqual(again.seat.dealt, steps[drop].seat.dealt);
  // Game over: both words, every role, the timer stopped; leaving gives the seat up and forgets it.
  const over = received(typed, "amy-2").find((m) => m.type === "game_over");
  assert.deepEqual(seat.gameOver, over);
  assert.ok(texts(seat).includes(`${STRINGS.en.winner[over.winner]} ${STRINGS.en.words(over.civilianWord, over.spyWord)}`));
  assert.equal(seat.gone, true);
  assert.equal(seat.token, null);
  assert.deepEqual(effectsOf(stepsOf(steps, "bye"), "forget"), [{ type: "forget", token: received(typed, "amy")[0].token }]);
});

test("an expired token closes the door with its reason, and a new room says who opened it", () => {
  const token = received(typed, "amy")[0].token;
  const { seat, steps } = replay(typed, ["amy-3"], { token, name: "Amy" });
  assert.equal(seat.token, null);
  assert.equal(say(STRINGS.en, seat.problem), STRINGS.en.problem.bad_token);
  assert.deepEqual(effectsOf(steps, "forget"), [{ type: "forget", token }]);
  assert.deepEqual(effectsOf(steps, "door"), [{ type: "door" }]);
  const hello = sent(typed, "opener")[0];
  const opener = replay(typed, ["opener"], { hello });
  assert.equal(opener.seat.opened, true);
  assert.equal(effectsOf(opener.steps, "store")[0].fields.opened, true);
  // The host closing is said, and the seat is kept for when it comes back.
  assert.equal(say(STRINGS.en, opener.seat.notice), STRINGS.en.bye.host_closing);
  assert.equal(opener.seat.gone, false);
});

test("the board is a public-only seat: never a word, the vote and the reveal", () => {
  const { seat, steps } = replay(typed, ["board"], { watch: true });
  assert.equal(seat.dealt, null);
  assert.equal(stepsOf(steps, "deal").length, 0);
  assert.deepEqual(effectsOf(steps, "store"), []);
  assert.ok(seat.gameOver);
  assert.equal(seat.watch, true);
  assert.equal(canVote(seat), false);
  // Who has voted comes from vote_progress alone (no snapshot follows it).
  const progress = stepsOf(steps, "vote_progress").at(-1);
  assert.deepEqual(progress.seat.room.seats.filter((s) => s.voted).map((s) => s.id).sort(), [...progress.message.voted].sort());
  assert.deepEqual(helloFor(newSeat({ watch: true, hello: { room: "KFRW", password: "x" } }), STRINGS.en),
    { type: "hello", protocol: 1, name: "", watch: true, room: "KFRW", password: "x" });
});

test("a second tab takes the seat: the first is told it was replaced", () => {
  const { seat } = replay(party, ["amy"]);
  assert.equal(seat.replaced, true);
  assert.equal(seat.gone, false);
  const tab = replay(party, ["amy-tab2"], { token: received(party, "amy")[0].token });
  assert.equal(tab.seat.id, received(party, "amy")[0].you);
  assert.equal(tab.seat.replaced, false);
});

test("a seat taken back on another phone: asked, refused, asked again, allowed; the old token is gone", () => {
  const olive = replay(party, ["olive"]);
  const asks = stepsOf(olive.steps, "claim");
  assert.equal(asks.length, 2);
  assert.deepEqual(asks[0].seat.claimAsked, { player: asks[0].message.player, name: "Cleo" });
  assert.deepEqual(asks[0].effects, [{ type: "focus", target: "claim-allow" }]);
  for (const done of stepsOf(olive.steps, "claim_done")) assert.equal(done.seat.claimAsked, null);
  const phone = replay(party, ["cleo-phone"], { hello: sent(party, "cleo-phone")[0] });
  assert.equal(stepsOf(phone.steps, "claim_pending")[0].seat.claimPending, "p5");
  assert.equal(say(STRINGS.en, phone.seat.problem), STRINGS.en.problem.claim_refused);
  assert.equal(phone.seat.claimPending, "");
  const late = replay(party, ["cleo-late"], { hello: sent(party, "cleo-late")[0] });
  assert.deepEqual(effectsOf(late.steps, "watch"), [{ type: "watch" }]);
  const claimer = replay(party, ["cleo-phone-2"], { hello: sent(party, "cleo-phone-2")[0], claim: "p5" });
  const welcome = received(party, "cleo-phone-2").find((m) => m.type === "welcome");
  assert.equal(claimer.seat.token, welcome.token);
  assert.equal(claimer.seat.id, "p5");
  assert.ok(claimer.seat.dealt && claimer.seat.dealt.word);
  const old = replay(party, ["cleo-old"], { token: received(party, "cleo")[0].token });
  assert.equal(old.seat.token, null);
});

test("the owner away at game over hands the room over; the next game deals the away seat out", () => {
  const amy = replay(party, ["amy", "amy-tab2"]);
  const change = received(party, "amy-tab2").find((m) => m.type === "owner");
  const step = stepsOf(amy.steps, "owner")[0];
  assert.equal(change.player, amy.seat.id);
  // Both phones say why: the host's reason, or (from a host that gives none) the away seat it last showed.
  const previous = amy.seat.names[change.previous];
  assert.equal(say(STRINGS.en, step.effects[0].line), STRINGS.en.ownerMoved.you(previous, "away"));
  assert.equal(say(STRINGS["zh-TW"], step.effects[0].line), STRINGS["zh-TW"].ownerMoved.you(previous, "away"));
  assert.ok(isOwner(stepsOf(amy.steps, "room").find((s) => s.message.game === 2).seat));
  const ben = replay(party, ["ben"]);
  assert.ok(texts(ben.seat).includes(STRINGS.en.ownerMoved.other("Amy", previous, "away")));
  const news = stepsOf(ben.steps, "owner")[0].seat.ownerNews;
  assert.deepEqual(news, { player: change.player, previous: change.previous, reason: "away", game: 1, phase: "gameOver" });
  // The next deal ends the news.
  assert.equal(ben.seat.ownerNews, null);
  // The old owner, back after the hand-over it never heard, is told by the snapshot why it no longer owns.
  const oldOwnerConns = [...new Set(party.filter((l) => l.recv && l.recv.type === "welcome" && l.recv.you === change.previous).map((l) => l.conn))];
  const back = replay(party, oldOwnerConns);
  assert.ok(texts(back.seat).includes(STRINGS.en.ownerMoved.fromYou("Amy", "away")), texts(back.seat).join("\n"));
  // A new tab of the old owner knows from the device that its seat owned the room, and is told why it does not now.
  const newTab = replay(party, ["olive-back"], { token: received(party, "olive")[0].token, wasOwner: true });
  assert.ok(texts(newTab.seat).includes(STRINGS.en.ownerMoved.fromYou("Amy", "away")), texts(newTab.seat).join("\n"));
  assert.deepEqual(effectsOf(newTab.steps, "store").filter((e) => "owner" in e.fields).map((e) => e.fields), [{ owner: false }]);
  const olive = replay(party, ["olive-back"], { token: received(party, "olive")[0].token });
  const mine = olive.seat.room.seats.find((s) => s.id === olive.seat.id);
  assert.equal(mine.sittingOut, true);
  assert.equal(olive.seat.dealt, null);
  assert.equal(isOwner(olive.seat), false);
  // The kicked player's seat is given up, and the door says why.
  assert.equal(ben.seat.gone, true);
  assert.equal(say(STRINGS.en, ben.seat.problem), STRINGS.en.problem.kicked);
  assert.deepEqual(effectsOf(ben.steps, "close"), [{ type: "close", key: 0 }]);
});

test("five players and a blank: too few to start, a tie and its PK, the blank's guess, the reveal", () => {
  const first = replay(blank, ["小明"]);
  const refused = stepsOf(first.steps, "error")[0];
  assert.equal(say(STRINGS.en, refused.seat.notice), STRINGS.en.problem.too_few_players_count(refused.message.need, refused.message.have));
  const results = stepsOf(first.steps, "vote_result");
  assert.deepEqual(results.map((s) => s.message.outcome), ["pk", "out", "out"]);
  // A tie's PK: the vote opens again for the tied players, with the ballot of the first vote gone.
  const pkVote = stepsOf(first.steps, "voting").find((s) => s.message.pk);
  assert.equal(pkVote.seat.ballot, null);
  assert.ok(texts(pkVote.seat).includes(STRINGS.en.votingOpened(true)));
  const deals = Object.fromEntries(["小明", "阿華", "Amy", "老王", "Eve"].map((conn) => [conn, received(blank, conn).find((m) => m.type === "deal")]));
  const guesser = Object.keys(deals).find((conn) => deals[conn].blank);
  const blankSeat = replay(blank, [guesser]);
  assert.equal(blankSeat.seat.dealt.blank, true);
  const guessing = stepsOf(blankSeat.steps, "guessing")[0];
  assert.equal(say(STRINGS["zh-TW"], guessing.effects[0].line), STRINGS["zh-TW"].yourGuess);
  const over = received(blank, "小明").find((m) => m.type === "game_over");
  assert.ok(texts(first.seat, "zh-TW").includes(STRINGS["zh-TW"].blankGuess(blankSeat.seat.name, over.blankGuess)));
  // Result lines name players, never ids.
  for (const step of results) {
    for (const entry of step.seat.events.slice(step.before.events.length)) assert.doesNotMatch(say(STRINGS.en, entry), /\bp\d+\b/);
  }
});

test("an English default name counts on when taken; a typed one is suggested with a number", () => {
  const auto = newSeat({ hello: { type: "hello", protocol: 1, name: "Player 1" }, autoName: 1 });
  const taken = update(auto, { type: "error", code: "name_taken", message: "" }, 0);
  assert.equal(taken.seat.autoName, 2);
  assert.deepEqual(taken.effects, [{ type: "open", key: 0 }]);
  assert.equal(helloFor(taken.seat, STRINGS.en).name, "Player 2");
  const typedName = update(newSeat({ hello: { type: "hello", protocol: 1, name: "Amy" } }), { type: "error", code: "name_taken", message: "" }, 0);
  assert.equal(typedName.seat.suggestedName, "Amy2");
  assert.equal(say(STRINGS.en, typedName.seat.problem), STRINGS.en.nameTakenTry("Amy2"));
  const asked = update(newSeat({ hello: { type: "hello", protocol: 1, name: "Cleo", create: true }, claim: "p3" }), { type: "link", status: "connecting" }, 0);
  assert.deepEqual(helloFor(asked.seat, STRINGS.en), { type: "hello", protocol: 1, name: "Cleo", claim: "p3" });
});

test("a move that cannot be sent waits for the host, without a second link state; a leave gives the seat up", () => {
  const seat = newSeat({ joined: true, token: "t", attempt: 2 });
  const move = update(seat, { type: "send_failed", message: { type: "pass" } }, 0);
  // The header alone says the link is down: the move shows as waiting, not as a red "reconnecting" line.
  assert.equal(move.seat.notice, null);
  assert.deepEqual(move.seat.pending.map((m) => m.message), [{ type: "pass" }]);
  const leave = update(seat, { type: "send_failed", message: { type: "leave" } }, 0);
  assert.equal(leave.seat.gone, true);
  assert.deepEqual(leave.effects, [{ type: "close", key: 0 }, { type: "forget", token: "t" }]);
});

/** Amy's seat fed her recorded messages up to her connection's drop mid-vote, and the link's news of it. */
function droppedMidVote() {
  let seat = newSeat({ token: "t" });
  for (const l of typed) {
    if (l.conn === "amy" && l.closed) break;
    if (l.conn === "amy" && l.recv) seat = update(seat, l.recv, l.at).seat;
  }
  return update(seat, { type: "link", status: "reconnecting", attempt: 1 }, 0).seat;
}

test("a ballot cast while the host is away is kept as waiting and sent once the seat is back", () => {
  let seat = droppedMidVote();
  // The ballot the page could not send: chosen on screen, waiting, and no red line.
  seat = update({ ...seat, ballot: "p3" }, { type: "send_failed", message: { type: "vote", target: "p3" } }, 0).seat;
  assert.equal(seat.notice, null);
  assert.equal(seat.ballot, "p3");
  const back = received(typed, "amy-2");
  const sends = [];
  for (const message of back.slice(0, 4)) {
    const result = update(seat, message, 0);
    seat = result.seat;
    sends.push(...result.effects.filter((e) => e.type === "send").map((e) => e.message));
  }
  // Sent once, on the first snapshot after the welcome; the host's older ballot does not hide it.
  assert.deepEqual(sends, [{ type: "vote", target: "p3" }]);
  assert.deepEqual(seat.pending, []);
  assert.equal(seat.ballot, "p3");
  assert.equal(seat.notice, null);
});

test("a move made while away that no longer applies is dropped, and the seat is told to make it again", () => {
  let seat = droppedMidVote();
  seat = update({ ...seat, ballot: "p3" }, { type: "send_failed", message: { type: "vote", target: "p3" } }, 0).seat;
  const [welcome, room] = received(typed, "amy-2");
  seat = update(seat, welcome, 0).seat;
  const moved = update(seat, { ...room, phase: "describing", round: 2, turn: "p2" }, 0);
  assert.deepEqual(moved.effects.filter((e) => e.type === "send"), []);
  assert.deepEqual(moved.seat.pending, []);
  assert.equal(say(STRINGS.en, moved.seat.notice), STRINGS.en.pendingLost);
});
