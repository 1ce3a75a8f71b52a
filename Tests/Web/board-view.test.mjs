// The board (/board) drawn from recorded games: a vote's result as the largest thing until the next clue, a PK
// naming its candidates with the tied vote kept in view, the vote that decided the game, the clues as a TV shows
// them (a PK's re-descriptions marked and counted apart, spoken turns as one line), the empty room saying how to
// join, who is still to vote, the room changing hands, the pairs' language, and the evening's games between games.
import assert from "node:assert/strict";
import { test } from "node:test";
import { firstSeat, initialModel, receive } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { boardScreen } from "../../Sources/SpyWeb/Assets/views/board-view.mjs";
import { received, transcript } from "./transcripts.mjs";

const L = STRINGS.en;
const blank = transcript("blank-guess");
const party = transcript("party");

/** A board fed `messages` in order; `each(screen, message, model)` sees the screen after every one. */
function board(messages, lang = "en", each = () => {}) {
  let model = initialModel({ board: true, lang });
  const key = firstSeat(model).key;
  for (const message of messages) {
    model = receive(model, key, message, 0).model;
    each(boardScreen(model, 0, STRINGS[lang]), message, model);
  }
  return model;
}

/** The text of a description (and of its children). */
function textOf(item) {
  if (typeof item === "string") return item;
  if (item.props.text !== undefined) return String(item.props.text);
  return item.children.map(textOf).join("");
}

test("a vote's result is the board's news until the next clue, a PK names its candidates and keeps the tie", () => {
  const messages = received(blank, "board");
  const seen = [];
  board(messages, "en", (screen, message, model) => seen.push({ screen, message, seat: firstSeat(model) }));
  const names = (ids, seat) => ids.map((id) => seat.room.seats.find((s) => s.id === id).name);

  const tieAt = seen.findIndex((s) => s.message.type === "vote_result" && s.message.outcome === "pk");
  const tie = seen[tieAt].message;
  // Right after the tie, before the PK's first clue: the tie across the screen, the tied players the big line.
  const afterTie = seen.slice(tieAt).find((s) => s.message.type === "room");
  assert.equal(afterTie.screen.layout, "reveal");
  assert.deepEqual([afterTie.screen.vote.big, afterTie.screen.vote.place], [true, "vote-card"]);
  assert.equal(afterTie.screen.vote.name, L.list(names(tie.tied, afterTie.seat)));
  assert.equal(afterTie.screen.vote.verdict, L.board.tie);
  assert.equal(afterTie.screen.vote.tally.length, tie.tally.length);
  assert.equal(afterTie.screen.now, L.board.pkTurn(names([afterTie.seat.room.turn], afterTie.seat)[0]));

  // The PK's first clue: the tie gives the screen back, and stays in view, named as the tied vote.
  const firstPkClue = seen.slice(tieAt).find((s) => s.message.type === "room" && s.seat.cluesSinceResult > 0);
  assert.equal(firstPkClue.screen.layout, "game");
  assert.deepEqual([firstPkClue.screen.vote.place, firstPkClue.screen.vote.heading], ["result", L.board.firstVote]);

  // The PK vote names the candidates (the tied players), not the voters, and the tied vote is still there.
  const pkVote = seen.find((s) => s.message.type === "voting" && s.message.pk);
  const pkScreen = seen.slice(seen.indexOf(pkVote)).find((s) => s.message.type === "room").screen;
  assert.equal(pkScreen.now, L.board.pkVote(L.board.or(...names(pkVote.message.candidates, pkVote.seat))));
  for (const voter of names(pkVote.message.voters, pkVote.seat)) assert.ok(!pkScreen.now.includes(voter), `${voter} votes, and is no candidate`);
  assert.equal(pkScreen.vote.heading, L.board.firstVote);
  assert.deepEqual(pkScreen.vote.tally.map((t) => t.player), [...tie.tally].sort((a, b) => b.voters.length - a.voters.length).map((t) => t.player));

  // The PK's result: who is out and who they were, the largest thing again, until round 2's first clue.
  const outAt = seen.findIndex((s, i) => i > tieAt && s.message.type === "vote_result");
  const out = seen[outAt].message;
  const afterOut = seen.slice(outAt).find((s) => s.message.type === "room");
  assert.equal(afterOut.screen.layout, "reveal");
  assert.equal(afterOut.screen.vote.name, names([out.out], afterOut.seat)[0]);
  assert.equal(afterOut.screen.vote.verdict, `${L.board.isOut} · ${L.board.wasRole(L.role[out.identity])}`);
  assert.ok(afterOut.screen.vote.tally.find((t) => t.player === out.out).out);
  const round2 = seen.slice(outAt).find((s) => s.message.type === "room" && s.seat.room.clues.some((c) => c.round === out.round + 1));
  assert.equal(round2.screen.layout, "game");
  assert.equal(round2.screen.vote.big, false);

  // Game over: the reveal with the vote that decided it.
  const last = seen.at(-1);
  const deciding = messages.filter((m) => m.type === "vote_result").at(-1);
  assert.equal(last.screen.layout, "over");
  assert.deepEqual([last.screen.vote.place, last.screen.vote.heading], ["deciding", L.board.decidingVote]);
  assert.equal(last.screen.vote.name, names([deciding.out], last.seat)[0]);
  assert.equal(last.screen.vote.verdict, `${L.board.isOut} · ${L.board.wasRole(L.role[deciding.identity])}`);
  assert.ok(last.screen.over);
});

test("the clues count a PK's re-descriptions apart and mark them; each colon is the language's own", () => {
  const messages = received(blank, "board");
  let inPk = null;
  let round2 = null;
  board(messages, "zh-TW", (screen, message, model) => {
    const room = firstSeat(model).room;
    if (!room || message.type !== "room") return;
    if (room.phase === "voting" && room.pk.length > 0) inPk = screen;
    if (room.phase === "voting" && room.round === 2) round2 = screen;
  });
  const T = STRINGS["zh-TW"];
  // Round 1 had five clues and two re-descriptions in its PK: folded, it says so.
  assert.equal(textOf(round2.clues[0]), T.board.roundFolded(1, 5, 2));
  assert.notEqual(textOf(round2.clues[0]), T.roundFolded(1, 7));
  // In the PK's vote, the latest round in full: the re-descriptions under a PK line, marked.
  const marks = inPk.clues.filter((item) => item.props.class.includes("pk-mark"));
  assert.equal(marks.length, 1);
  const pkClues = inPk.clues.filter((item) => item.props.class.split(" ").includes("pk"));
  assert.equal(pkClues.length, 2);
  assert.ok(inPk.clues.indexOf(marks[0]) < inPk.clues.indexOf(pkClues[0]));
  for (const clue of inPk.clues.filter((item) => item.props.class.startsWith("clue ") || item.props.class === "clue")) {
    assert.match(textOf(clue.children[0]), /：$/);
  }
  // In English the name is followed by ": ".
  let english = null;
  board(messages, "en", (screen, message, model) => {
    if (message.type === "room" && firstSeat(model).room.phase === "voting") english = english || screen;
  });
  const clue = english.clues.find((item) => item.children.length === 2);
  assert.match(textOf(clue.children[0]), /[^：]: $/);
});

test("in a spoken room the clue column names who has described, once, not a line per turn", () => {
  const messages = received(party, "board");
  let voting = null;
  board(messages, "zh-TW", (screen, message, model) => {
    const room = firstSeat(model).room;
    if (message.type === "room" && room.phase === "voting" && !voting) voting = { screen, room };
  });
  const T = STRINGS["zh-TW"];
  const texts = voting.screen.clues.map(textOf);
  assert.ok(!texts.some((text) => text.includes(T.spokenClue)), texts.join(" | "));
  // People's turns are runs of names (a bot's written clue, in order, between them); each person named once.
  const spoken = voting.screen.clues.filter((item) => item.props.class.includes("spoken-turns"));
  const people = voting.room.clues.filter((c) => c.text === undefined).map((c) => voting.room.seats.find((s) => s.id === c.player).name);
  assert.ok(spoken.length >= 1 && spoken.length < people.length);
  const runs = [];
  for (const clue of voting.room.clues) {
    const name = voting.room.seats.find((s) => s.id === clue.player).name;
    if (clue.text !== undefined) runs.push(null);
    else if (runs.length > 0 && runs.at(-1)) runs.at(-1).push(name);
    else runs.push([name]);
  }
  assert.deepEqual(spoken.map(textOf), runs.filter(Boolean).map((names) => T.board.spokenRound(T.list(names))));
  assert.ok(texts.some((text) => text.includes("要裝備")), "a bot's written clue is shown as written");
});

test("an empty room says how to join and shows no seats; a vote names who is still to vote, without 'others'", () => {
  const lobby = received(blank, "board").find((m) => m.type === "room" && m.seats.length > 0);
  const empty = { ...lobby, seats: [] };
  const model = board([{ type: "welcome", watch: true }, empty]);
  const screen = boardScreen(model, 0, L);
  assert.equal(screen.layout, "empty");
  assert.equal(screen.now, L.board.joinFirst);
  assert.deepEqual(screen.seats, []);
  const noOwner = boardScreen(board([{ type: "welcome", watch: true }, { ...lobby, seats: lobby.seats.map((s) => ({ ...s, owner: false })) }]), 0, L);
  assert.equal(noOwner.now, L.board.joinFirst);
  const owned = boardScreen(board([{ type: "welcome", watch: true }, lobby]), 0, L);
  assert.equal(owned.now, L.waitingForStart);

  const messages = received(blank, "board");
  const progress = messages.findIndex((m) => m.type === "vote_progress" && m.voted.length > 0);
  const seat = firstSeat(board(messages.slice(0, progress + 1)));
  const screenThen = boardScreen(board(messages.slice(0, progress + 1)), 0, L);
  const waiting = seat.room.seats.filter((s) => messages[progress].waiting.includes(s.id)).map((s) => s.name);
  assert.equal(screenThen.nowDetail, L.board.stillToVote(L.list(waiting)));
  for (const lang of Object.keys(STRINGS)) {
    assert.doesNotMatch(boardScreen(board(messages.slice(0, progress + 1), lang), 0, STRINGS[lang]).nowDetail, /others|其他人/);
  }
});

test("the room changing hands is said on the board, with why, until the next game starts", () => {
  const messages = received(party, "board");
  const at = messages.findIndex((m) => m.type === "owner");
  const change = { ...messages[at], reason: "away" };
  const withReason = [...messages.slice(0, at), change, ...messages.slice(at + 1)];
  let shown = null;
  let nextGame = null;
  board(withReason, "en", (screen, message, model) => {
    const room = firstSeat(model).room;
    if (message === change) shown = { screen: boardScreen(model, 0, L), room };
    if (shown && room && room.game > shown.room.game && !nextGame) nextGame = screen;
  });
  const name = (id) => shown.room.seats.find((s) => s.id === id).name;
  assert.equal(shown.screen.ownerNews, L.board.ownerNews(name(change.player), name(change.previous), "away"));
  assert.equal(shown.screen.ownerNews, `${name(change.player)} is now the owner — ${name(change.previous)} was away`);
  assert.equal(nextGame.ownerNews, "");
  let plain = "";
  board(messages, "zh-TW", (screen, message) => {
    if (message.type === "owner") plain = screen.ownerNews;
  });
  // From a host that gives no reason the board reads it from the seats: the owner before was away.
  assert.equal(plain, STRINGS["zh-TW"].board.ownerNews(name(change.player), name(change.previous), "away"));
});

test("the settings summary names the pairs' language", () => {
  const lobby = received(blank, "board").find((m) => m.type === "room");
  for (const lang of Object.keys(STRINGS)) {
    const T = STRINGS[lang];
    const settings = { ...lobby.settings, language: "en" };
    const screen = boardScreen(board([{ type: "welcome", watch: true }, { ...lobby, settings }], lang), 0, T);
    assert.ok(screen.settings.startsWith(T.settingsLine(settings, T).split(" · ")[0]), screen.settings);
    assert.ok(screen.settings.split(" · ")[0].endsWith(T.language.en), screen.settings);
  }
});

test("between games the board lists the evening's games; never during one, never a game not over", () => {
  const messages = received(blank, "board");
  const over = messages.findIndex((m) => m.type === "game_over");
  const record = {
    game: 1,
    civilianWord: "蒼蠅",
    spyWord: "蚊子",
    winner: "blank",
    players: [
      { player: "p1", name: "Amy", role: "civilian", points: 0, survived: false },
      { player: "p2", name: "小明", role: "spy", points: 0, survived: true },
      { player: "p3", name: "Eve", role: "blank", points: 3, survived: false },
    ],
    outs: [
      { player: "p1", round: 1, reason: "voted", votes: 3, pk: true },
      { player: "p3", round: 2, reason: "voted", votes: 3, pk: false },
    ],
    guesses: [{ player: "p3", round: 2, word: "蒼蠅", correct: true }],
  };
  const later = { ...record, game: 2 };
  const during = board([...messages.slice(0, over - 3), { type: "history", games: [record] }]);
  assert.deepEqual(boardScreen(during, 0, L).history, []);
  const model = board([...messages.slice(0, over + 2), { type: "history", games: [record, later] }, { type: "history", games: [record] }]);
  const items = boardScreen(model, 0, L).history;
  assert.equal(items.length, 1, "game 2 is not over on this board");
  const text = textOf(items[0]);
  assert.ok(text.includes(L.board.historyGame(1, L.winner.blank)));
  assert.ok(text.includes(L.board.historyPair("蒼蠅", "蚊子")));
  assert.ok(text.includes(L.board.historySpies("小明")) && text.includes(L.board.historyBlank("Eve")));
  assert.ok(text.includes(L.board.historyOut("Amy", 1, "voted", true)) && text.includes(L.board.historyOut("Eve", 2, "voted", false)));
  assert.deepEqual(firstSeat(model).history.map((r) => r.game), [1, 2]);
});
