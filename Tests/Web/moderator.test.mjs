// The moderator (法官) on the player page, over a game a real spyd played (transcripts/moderator.jsonl): the owner
// names Amy, who declines, then accepts; she types the pair, starts, pauses and resumes, passes the turn of a
// speaker who dropped, sees every word, ballot and guess; at game over she kicks a player and gives the seat up, and
// the owner takes it. Each state of the reducer, the model's intents and the moderator's card, and that no other
// seat (a player, the board) ever holds what only the moderator sees.
import assert from "node:assert/strict";
import { test } from "node:test";
import { act } from "../../Sources/SpyWeb/Assets/core/intents.mjs";
import { firstSeat, initialModel, moderatorAsker, moderatorSeat, receive } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { privateMoments } from "../../Sources/SpyWeb/Assets/core/moments.mjs";
import { say, STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { actionPanel, seatExtras, timerText } from "../../Sources/SpyWeb/Assets/views/game-view.mjs";
import { absentTurn, moderatorPanel, secretShown, tableSizeLine } from "../../Sources/SpyWeb/Assets/views/moderator-view.mjs";
import { effectsOf, replay, stepsOf, transcript } from "./transcripts.mjs";

const L = STRINGS.en;
const lines = transcript("moderator");
const conns = (name) => [...new Set(lines.filter((l) => l.conn === name || l.conn.startsWith(`${name}-`)).map((l) => l.conn))];
const amy = () => replay(lines, conns("amy"));
const received = (name) => lines.filter((l) => conns(name).includes(l.conn) && l.recv).map((l) => l.recv);
const firstOf = (type, extra = () => true) => lines.find((l) => l.recv && l.recv.type === type && extra(l.recv));
const deals = lines.filter((l) => l.recv && l.recv.type === "deal").map((l) => l.recv);

/** A page holding one seat per list of connections, fed their recorded messages until `until(model, line)`. */
function page(seats, until = () => false) {
  const stored = seats.map((name) => ({ token: `t-${name}`, name }));
  let model = initialModel({ stored, lang: "en" });
  const keyOf = new Map(seats.flatMap((name, i) => conns(name).map((conn) => [conn, model.seats[i].key])));
  const effects = [];
  let at = 0;
  for (const l of lines) {
    if (!keyOf.has(l.conn) || !l.recv) continue;
    if (until(model, l)) break;
    const result = receive(model, keyOf.get(l.conn), l.recv, l.at);
    model = result.model;
    effects.push(...result.effects);
    at = l.at;
  }
  return { model, effects, at };
}

/** Every text and label a list of descriptions would put on the page. */
function texts(nodes) {
  const out = [];
  const walk = (node) => {
    if (!node) return;
    if (typeof node === "string") return out.push(node);
    for (const key of ["text", "aria-label"]) if (node.props[key] !== undefined) out.push(String(node.props[key]));
    node.children.forEach(walk);
  };
  (Array.isArray(nodes) ? nodes : [nodes]).forEach(walk);
  return out.join("\n");
}

/** The descriptions with an `id`, by id. */
function byId(nodes, id) {
  let found = null;
  const walk = (node) => {
    if (!node || typeof node === "string" || found) return;
    if (node.props.id === id) found = node;
    node.children.forEach(walk);
  };
  nodes.forEach(walk);
  return found;
}

const noop = () => {};
const phaseIs = (phase) => (model) => Boolean(firstSeat(model).room && firstSeat(model).room.phase === phase);
const atLine = (target) => (_, l) => l === target;

test("asked to moderate: the question, its focus, and the answer sent from the seat asked", () => {
  const offer = firstOf("moderator_offer");
  const { model, effects } = page(["amy"], (m, l) => lines.indexOf(l) > lines.indexOf(offer));
  const seat = firstSeat(model);
  assert.equal(seat.moderatorAsked, true);
  assert.equal(moderatorAsker(model), seat);
  assert.ok(effects.some((e) => e.type === "focus" && e.target === "moderator-accept"));
  const { model: answered, effects: sent } = act(model, { type: "moderator_answer", accept: false }, 0);
  assert.deepEqual(sent, [{ type: "send", key: seat.key, message: { type: "moderator_answer", accept: false } }]);
  assert.equal(moderatorAsker(answered), null);
});

test("the owner is told who declined, and everyone who moderates once they accept", () => {
  const olive = replay(lines, conns("olive"));
  const declined = stepsOf(olive.steps, "moderator_declined")[0];
  assert.deepEqual(declined.seat.notice, { t: "moderator.declined", a: ["Amy"] });
  const named = stepsOf(olive.steps, "moderator")[0];
  assert.equal(say(L, named.seat.events.at(-1)), "Amy is the moderator now");
  const ben = replay(lines, conns("ben"));
  const events = ben.seat.events.map((e) => say(L, e));
  assert.ok(events.includes("Amy is the moderator now"));
  assert.ok(events.includes("Nobody moderates now"));
  assert.ok(events.includes("Olive is the moderator now"));
  const mine = stepsOf(amy().steps, "moderator")[0];
  assert.equal(say(L, mine.seat.events.at(-1)), L.moderator.youAre);
  assert.equal(mine.seat.moderatorAsked, false);
});

test("the moderator's seat holds the view the host sends it, the typed pair empties the pair's fields", () => {
  const { steps } = amy();
  const views = stepsOf(steps, "moderator_view");
  assert.ok(views.length > 10);
  const typed = views.find((step) => step.message.nextPair);
  assert.deepEqual(typed.seat.moderatorView.nextPair, { civilian: "婚紗", spy: "禮服" });
  assert.equal(typed.seat.pairsTaken, typed.before.pairsTaken + 1);
  // The moderator is dealt nothing and never holds a word of their own.
  assert.ok(steps.every((step) => step.seat.dealt === null));
  const dealt = views.find((step) => step.message.players.length === 5).seat.moderatorView;
  assert.deepEqual(new Set([dealt.civilianWord, dealt.spyWord]), new Set(["婚紗", "禮服"]));
  // Every player's word is the one their own deal gave them.
  for (const deal of deals.filter((d) => d.game === 1)) {
    const owner = lines.find((l) => l.recv === deal).conn;
    const id = lines.find((l) => l.conn === owner && l.recv && l.recv.type === "welcome").recv.you;
    const entry = dealt.players.find((p) => p.player === id);
    assert.equal(entry.role === "blank", deal.blank === true);
    if (!deal.blank) assert.equal(entry.word, deal.word);
  }
});

test("the moderator's card shows each ballot as it comes in and the blank's guess", () => {
  const progress = lines.filter((l) => conns("amy").includes(l.conn) && l.recv && l.recv.type === "moderator_view" && l.recv.ballots.length > 0);
  const { model } = page(["amy"], atLine(progress[1]));
  const mine = moderatorSeat(model);
  assert.ok(mine);
  const before = mine.moderatorView.ballots.reduce((n, b) => n + b.voters.length, 0);
  const next = page(["amy"], (m, l) => lines.indexOf(l) > lines.indexOf(progress[1]));
  const after = moderatorSeat(next.model).moderatorView.ballots.reduce((n, b) => n + b.voters.length, 0);
  assert.equal(after, before + 1);
  const panel = moderatorPanel(next.model, L, noop);
  const ballots = byId(panel.nodes, "moderator-ballots");
  assert.ok(ballots && ballots.children.length >= 1);
  assert.match(texts(ballots), / ← /);
  assert.ok(byId(panel.nodes, "moderator-players"));
  assert.equal(byId(panel.nodes, "moderator-players").children.length, 5);
  assert.match(texts(panel.nodes), /Civilian word: (婚紗|禮服) · Spy word: (婚紗|禮服)/);
  const { model: vote } = page(["amy"], atLine(progress[1]));
  const action = actionPanel(vote, firstSeat(vote), L);
  assert.deepEqual([action.prompt, action.voteList], [L.moderator.watchVote, false]);

  const guessed = lines.find((l) => conns("amy").includes(l.conn) && l.recv && l.recv.type === "moderator_view" && l.recv.guesses.length > 0);
  const { model: guessing } = page(["amy"], (m, l) => lines.indexOf(l) > lines.indexOf(guessed));
  const guessText = texts(byId(moderatorPanel(guessing, L, noop).nodes, "moderator-guesses"));
  assert.match(guessText, /guessed 西裝 \(wrong\)/);
});

test("pause and resume: every page shows the timer paused and says so; the moderator's button follows", () => {
  const paused = firstOf("room", (r) => r.paused === true);
  const { model } = page(["amy"], (m, l) => lines.indexOf(l) > lines.indexOf(lines.find((x) => conns("amy").includes(x.conn) && x.recv && x.recv.paused === true)));
  const panel = moderatorPanel(model, L, noop);
  assert.equal(byId(panel.nodes, "moderator-pause").props.text, L.moderator.resume);
  assert.ok(paused);
  const ben = replay(lines, conns("ben"));
  const pausedStep = ben.steps.find((step) => step.message.type === "room" && step.message.paused === true);
  assert.equal(say(L, pausedStep.seat.events.at(-1)), L.moderator.pausedEvent);
  const resumed = ben.steps.find((step) => step.message.type === "room" && step.before.room && step.before.room.paused && !step.message.paused);
  assert.equal(say(L, resumed.seat.events.at(-1)), L.moderator.resumedEvent);
  // A paused timer shows what is left and does not count down.
  const seat = { ...pausedStep.seat, timer: { endsAt: 1000, kind: "turn", paused: true, leftMs: 12000 } };
  assert.deepEqual(timerText(seat, L, 50000), { text: L.moderator.pausedTimer(12), label: L.moderator.paused });
});

test("an away speaker's turn: the moderator is offered to pass it, and the intent sends pass_turn from their seat", () => {
  const away = lines.find((l) => conns("amy").includes(l.conn) && l.recv && l.recv.type === "room" && l.recv.phase === "describing" && l.recv.seats.some((s) => s.id === l.recv.turn && !s.connected));
  const { model } = page(["amy"], (m, l) => lines.indexOf(l) > lines.indexOf(away));
  const mine = moderatorSeat(model);
  assert.equal(absentTurn(mine).id, away.recv.turn);
  const button = byId(moderatorPanel(model, L, noop).nodes, "moderator-pass");
  assert.equal(button.props.text, L.moderator.passTurn(absentTurn(mine).name));
  const { effects } = act(model, { type: "moderate", message: { type: "pass_turn" } }, 0);
  assert.deepEqual(effects, [{ type: "send", key: mine.key, message: { type: "pass_turn" } }]);
  // Anything else is not the moderator's to send this way.
  assert.deepEqual(act(model, { type: "moderate", message: { type: "vote", target: "p1" } }, 0).effects, []);
});

test("in the lobby: the owner names the moderator; the moderator types the pair and starts; the table's size leaves them out", () => {
  const accepted = firstOf("moderator", (m) => m.player);
  const { model: owner } = page(["olive"], (m, l) => lines.indexOf(l) > lines.indexOf(accepted) + 12 && l.recv.type === "deal");
  const panel = moderatorPanel(owner, L, noop);
  assert.equal(panel.shown, true);
  assert.equal(byId(panel.nodes, "moderator-line").props.text, L.moderator.line("Amy"));
  assert.ok(byId(panel.nodes, "moderator-me"));
  assert.ok(byId(panel.nodes, "moderator-stop"));
  assert.equal(byId(panel.nodes, "moderator-pair-form"), null);
  assert.equal(byId(panel.nodes, "moderator-secret"), null);
  const room = firstSeat(owner).room;
  assert.equal(room.seats.length, 6);
  assert.equal(tableSizeLine(room, L), L.moderator.tableSize(5, room.settings.maxPlayers));
  const { effects } = act(owner, { type: "moderator_name", player: "p3" }, 0);
  assert.deepEqual(effects.map((e) => e.message), [{ type: "moderator", player: "p3" }]);

  const { model: mod } = page(["amy"], (m, l) => l.recv.type === "turn");
  const mine = firstSeat(mod);
  const cardNodes = moderatorPanel(mod, L, noop).nodes;
  assert.ok(byId(cardNodes, "moderator-pair-form"));
  assert.equal(byId(cardNodes, "moderator-next").props.text, L.moderator.nextPair("婚紗", "禮服"));
  const action = actionPanel(mod, mine, L);
  assert.deepEqual([action.prompt, action.lobbyActions], [L.moderator.canStart, true]);
  const typed = act(mod, { type: "moderator_pair", civilian: " 咖啡 ", spy: "奶茶" }, 0);
  assert.deepEqual(typed.effects, [{ type: "send", key: mine.key, message: { type: "moderator_pair", civilian: "咖啡", spy: "奶茶" } }]);
  assert.deepEqual(act(mod, { type: "moderator_pair", civilian: "咖啡", spy: " " }, 0).effects, []);
  assert.deepEqual(act(mod, { type: "move", message: { type: "start" } }, 0).effects.map((e) => e.message), [{ type: "start" }]);
  const stop = act(mod, { type: "moderator_stop" }, 0).effects;
  assert.deepEqual(stop.map((e) => e.message), [{ type: "moderator" }]);
});

test("the moderator kicks: the kick buttons show on their page and the confirmed kick goes from their seat", () => {
  const { model } = page(["amy"], (m, l) => phaseIs("gameOver")(m) && l.recv.type === "moderator");
  const extra = seatExtras(model, firstSeat(model), L, noop);
  const ben = firstSeat(model).room.seats.find((s) => s.name === "Ben");
  assert.equal(extra(ben).props.text, L.kick);
  let next = act(model, { type: "kick", player: ben.id }, 0).model;
  const { effects } = act(next, { type: "answer", yes: true }, 0);
  assert.deepEqual(effects, [{ type: "send", key: firstSeat(model).key, message: { type: "kick", player: ben.id } }]);
});

test("no other seat ever holds what only the moderator sees, and the moderator's seat lets go of it", () => {
  for (const name of ["ben", "cleo", "dan", "eve", "board"]) {
    const { steps } = replay(lines, conns(name), name === "board" ? { watch: true } : {});
    assert.ok(steps.every((step) => step.seat.moderatorView === null), `${name} holds no moderator view`);
    assert.ok(!received(name).some((m) => m.type === "moderator_view"), `${name} got no moderator view`);
  }
  // Olive gets a view only once she moderates herself, at the very end.
  const olive = replay(lines, conns("olive"));
  const first = olive.steps.findIndex((step) => step.seat.moderatorView !== null);
  assert.ok(first > 0);
  assert.ok(olive.steps.slice(0, first).some((step) => step.message.type === "moderator" && step.message.player === "p1"));
  // Amy gives the seat up: her view goes at once.
  const { steps } = amy();
  const gaveUp = steps.find((step) => step.message.type === "moderator" && !step.message.player);
  assert.equal(gaveUp.seat.moderatorView, null);
  assert.ok(steps.slice(steps.indexOf(gaveUp)).every((step) => step.seat.moderatorView === null));
  // The player's card never shows the secret part.
  const { model } = page(["ben"], phaseIs("voting"));
  const card = moderatorPanel(model, L, noop);
  assert.equal(card.shown, true);
  assert.equal(byId(card.nodes, "moderator-secret"), null);
  assert.equal(byId(card.nodes, "moderator-pause"), null);
  assert.equal(effectsOf(replay(lines, conns("ben")).steps, "focus").some((e) => e.target === "moderator-accept"), false);
});

test("a shared page with the moderator: the moderator's screen waits for 'only the moderator looking', and closes for a player's moment", () => {
  // Amy moderates on the page that also holds Ben and Cleo: the deal's pass screens come first.
  const viewed = (m) => Boolean(m.seats[0].moderatorView && m.seats[0].moderatorView.players.length === 5);
  const dealt = (m) => m.seats.slice(1).every((s) => s.dealt) && phaseIs("describing")(m) && viewed(m);
  const { model } = page(["amy", "ben", "cleo"], (m) => dealt(m));
  assert.ok(privateMoments(model).length >= 2);
  assert.equal(secretShown(model), false);
  let next = act(model, { type: "moderator_screen", step: "sure" }, 0).model;
  next = act(next, { type: "moderator_screen", step: "open" }, 0).model;
  // A player's word still waits behind its pass screen: the moderator's screen stays shut.
  assert.equal(next.ui.moderator, "");
  assert.equal(secretShown(next), false);
  assert.equal(byId(moderatorPanel(next, L, noop).nodes, "moderator-screen"), null);
  const words = new Set(deals.filter((d) => !d.blank).map((d) => d.word));
  assert.ok([...words].every((word) => !texts(moderatorPanel(next, L, noop).nodes).includes(word)));
  // Both words seen and hidden: now the moderator may look, after saying only they are looking.
  for (const seat of next.seats.slice(1)) next = act(next, { type: "hide_word", key: seat.key }, 0).model;
  assert.equal(privateMoments(next).filter((m) => m.kind === "word").length, 0);
  let card = moderatorPanel(next, L, noop);
  assert.ok(byId(card.nodes, "moderator-screen"));
  next = act(next, { type: "moderator_screen", step: "sure" }, 0).model;
  card = moderatorPanel(next, L, noop);
  assert.equal(byId(card.nodes, "moderator-show").props.text, L.moderator.showYes("Amy"));
  assert.equal(byId(card.nodes, "moderator-secret"), null);
  next = act(next, { type: "moderator_screen", step: "open" }, 0).model;
  card = moderatorPanel(next, L, noop);
  assert.equal(secretShown(next), true);
  assert.ok(byId(card.nodes, "moderator-players"));
  assert.ok(byId(card.nodes, "moderator-hide"));
  // The page going hidden shuts it.
  const hidden = act(next, { type: "hidden", hidden: true }, 0).model;
  assert.equal(secretShown(hidden), false);
  assert.equal(hidden.ui.moderator, "");
});

test("the moderator's phone drops and comes back: the view again from the host, and still no word of their own", () => {
  const { steps } = amy();
  const back = steps.findIndex((step) => step.message.type === "welcome" && step.message.resumed === true);
  assert.ok(back > 0, "Amy's seat resumed");
  const after = steps.slice(back);
  const view = after.find((step) => step.message.type === "moderator_view");
  assert.equal(view.seat.moderatorView.players.length, 5);
  assert.equal(say(L, after[0].seat.events.at(-1)), L.reconnected);
  assert.ok(!received("amy").some((m) => m.type === "deal"), "the moderator is never dealt");
  // The view on the phone is only what the host sent since: the same game, every word again.
  assert.equal(view.seat.moderatorView.game, firstOf("deal").recv.game);
});
