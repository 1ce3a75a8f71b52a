// The pass screens drawn from a recorded game four seats played on one page: "pass the device" before each
// private moment, one seat's word at a time, the ballot asked for each voter, the forgot page's steps, and the
// device's seats with a leave button for every seat but the first.
import assert from "node:assert/strict";
import { test } from "node:test";
import { act } from "../../Sources/SpyWeb/Assets/core/intents.mjs";
import { initialModel, receive } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { deviceSeatItems, passView } from "../../Sources/SpyWeb/Assets/views/pass-view.mjs";
import { transcript } from "./transcripts.mjs";

const L = STRINGS.en;
const P = L.pass;
const blank = transcript("blank-guess");
const table = ["小明", "阿華", "Amy", "老王"];

function page(until) {
  const stored = table.map((conn) => ({ token: `t-${conn}`, name: conn }));
  let model = initialModel({ stored, lang: "en" });
  const keys = Object.fromEntries(table.map((conn, i) => [conn, model.seats[i].key]));
  for (const l of blank) {
    if (!(l.conn in keys) || !l.recv) continue;
    if (until(model)) break;
    model = receive(model, keys[l.conn], l.recv, l.at).model;
  }
  return model;
}

/** Every text in a tree of descriptions. */
function texts(nodes) {
  return nodes.flatMap((node) => (typeof node === "string" ? [node] : [node.props.text, node.props["aria-label"], ...texts(node.children)])).filter(Boolean);
}
function find(nodes, test) {
  for (const node of nodes) {
    if (typeof node === "string") continue;
    if (test(node)) return node;
    const inner = find(node.children, test);
    if (inner) return inner;
  }
  return null;
}
const byId = (id) => (node) => node.props.id === id;

function dispatcher() {
  const sent = [];
  return { sent, dispatch: (intent) => sent.push(intent) };
}

/** Every word hidden, as each seat did on its pass screen. */
function hideAll(model) {
  for (const seat of model.seats) if (seat.dealt) model = act(model, { type: "hide_word", key: seat.key }, 0).model;
  return model;
}
const voting = (m) => m.seats[0].room && m.seats[0].room.phase === "voting" && m.seats.every((s) => s.voting);

const dealt = (model) => model.seats.every((seat) => seat.dealt) && model.seats[0].room.phase === "describing";

test("each word waits behind 'pass the device', and only that seat's word is ever in the screen", () => {
  let model = page(dealt);
  const words = model.seats.map((seat) => seat.dealt.word).filter(Boolean);
  for (const seat of model.seats) {
    const { sent, dispatch } = dispatcher();
    const pass = passView(model, L, dispatch);
    assert.deepEqual(texts(pass.nodes).slice(0, 1), [P.passTo(seat.name)]);
    assert.ok(texts(pass.nodes).every((text) => words.every((word) => !text.includes(word))));
    find(pass.nodes, byId("pass-open")).props.onclick();
    model = act(model, sent[0], 0).model;
    const shown = passView(model, L, dispatch);
    const word = find(shown.nodes, byId("pass-word")).props.text;
    assert.equal(word, seat.dealt.blank ? P.blankOf(seat.name) : P.wordOf(seat.name, seat.dealt.word));
    const others = model.seats.filter((s) => s.key !== seat.key && s.dealt.word && s.dealt.word !== seat.dealt.word);
    assert.ok(others.every((other) => texts(shown.nodes).every((text) => !text.includes(other.dealt.word))));
    find(shown.nodes, byId("pass-hide")).props.onclick();
    assert.deepEqual(sent[1], { type: "hide_word", key: seat.key });
    model = act(model, sent[1], 0).model;
    assert.notEqual(passView(model, L, dispatch).key, shown.key);
  }
  // Every word hidden: the typed clue of the seat whose turn it is is public, so its box shows with no pass screen.
  const turn = model.seats.find((seat) => seat.id === model.seats[0].room.turn);
  assert.deepEqual(texts(passView(model, L, () => {}).nodes).slice(0, 1), [P.clueOf(turn.name)]);
});

test("a typed clue is sent from the seat whose turn it is, with 忘詞 beside its box", () => {
  let model = hideAll(page(dealt));
  const turn = model.seats.find((seat) => seat.id === model.seats[0].room.turn);
  const { sent, dispatch } = dispatcher();
  const screen = passView(model, L, dispatch);
  assert.equal(find(screen.nodes, byId("pass-open")), null);
  const form = screen.nodes[0];
  // 忘詞 opens the forgot page over the clue's box, and the box comes back after it.
  find(screen.nodes, byId("pass-forgot")).props.onclick();
  const forgot = act(model, sent.pop(), 0).model;
  assert.ok(texts(passView(forgot, L, () => {}).nodes).includes(P.forgotWho));
  assert.deepEqual(texts(passView(act(forgot, { type: "forgot", step: null }, 0).model, L, () => {}).nodes).slice(0, 1), [P.clueOf(turn.name)]);
  sent.push(null);
  assert.equal(form.tag, "form");
  assert.ok(texts([form]).includes(P.clueOf(turn.name)));
  form.props.onsubmit({ preventDefault() {}, target: { querySelector: () => ({ value: "  red  " }) } });
  assert.deepEqual(sent[1], { type: "move", key: turn.key, message: { type: "clue", text: "red" } });
  find([form], (node) => node.props.text === L.passTurn).props.onclick();
  assert.deepEqual(sent[2], { type: "move", key: turn.key, message: { type: "pass" } });
});

test("each voter's ballot is asked behind its own pass screen, for everyone but themselves", () => {
  const model = hideAll(page(voting));
  const { sent, dispatch } = dispatcher();
  const first = passView(model, L, dispatch);
  find(first.nodes, byId("pass-open")).props.onclick();
  const opened = act(model, sent[0], 0).model;
  const voter = opened.seats.find((seat) => texts(first.nodes)[0] === P.passTo(seat.name));
  const screen = passView(opened, L, dispatch);
  assert.ok(texts(screen.nodes).includes(P.voteOf(voter.name)));
  const list = find(screen.nodes, byId("pass-votes"));
  const targets = list.children.map((item) => item.props.key);
  assert.ok(!targets.includes(voter.id));
  assert.deepEqual([...targets].sort(), voter.voting.candidates.filter((id) => id !== voter.id).sort());
  list.children[0].children[0].props.onclick();
  assert.deepEqual(sent[1], { type: "vote", key: voter.key, target: targets[0], moment: sent[0].moment });
});

test("the forgot page: the names, 'only NAME looking?', then the word until a tap", () => {
  let model = hideAll(page(voting));
  // Between moments (every ballot taken here), 忘詞 opens the forgot page.
  model = { ...model, ui: { ...model.ui, pass: { ...model.ui.pass, ballots: model.seats.map((s) => `vote/${s.room.game}/${s.room.round}/${s.room.pk.length}/${s.id}`) } } };
  const { sent, dispatch } = dispatcher();
  find(passView(model, L, dispatch).nodes, byId("pass-forgot")).props.onclick();
  model = act(model, sent.at(-1), 0).model;
  const list = find(passView(model, L, dispatch).nodes, byId("forgot-seats"));
  assert.deepEqual(list.children.map((item) => item.children[0].props.text), model.seats.filter((s) => s.dealt).map((s) => s.name));
  list.children[1].children[0].props.onclick();
  model = act(model, sent.at(-1), 0).model;
  const chosen = model.seats[1];
  const sure = passView(model, L, dispatch);
  assert.equal(sure.nodes[0].props.text, P.forgotSure(chosen.name));
  assert.ok(texts(sure.nodes).every((text) => !chosen.dealt.word || !text.includes(chosen.dealt.word)));
  find(sure.nodes, byId("forgot-show")).props.onclick();
  model = act(model, sent.at(-1), 0).model;
  const word = passView(model, L, dispatch);
  assert.equal(find(word.nodes, byId("pass-word")).props.text, chosen.dealt.blank ? P.blankOf(chosen.name) : P.wordOf(chosen.name, chosen.dealt.word));
  find(word.nodes, byId("forgot-word")).props.onpointerup();
  assert.deepEqual(sent.at(-1), { type: "forgot", step: "list" });
  // Hidden: the word goes, and the button's blur as it goes opens nothing for when the page shows again.
  const hidden = act(model, { type: "hidden", hidden: true }, 0).model;
  assert.deepEqual(passView(hidden, L, dispatch).nodes, []);
  find(word.nodes, byId("forgot-word")).props.onblur();
  const shown = act(act(hidden, sent.at(-1), 0).model, { type: "hidden", hidden: false }, 0).model;
  assert.ok(find(passView(shown, L, dispatch).nodes, byId("pass-forgot")));
});

test("the device's seats: a leave button for every seat but the first; nothing shows on a hidden page", () => {
  const model = page(dealt);
  const { sent, dispatch } = dispatcher();
  const items = deviceSeatItems(model, L, dispatch);
  assert.deepEqual(items.map((item) => item.children[0].props.text), table);
  const leaves = items.map((item) => find([item], (node) => node.tag === "button"));
  assert.equal(leaves[0], null);
  leaves[2].props.onclick();
  assert.deepEqual(sent, [{ type: "leave", key: model.seats[2].key }]);
  const hidden = act(model, { type: "hidden", hidden: true }, 0).model;
  assert.deepEqual(passView(hidden, L, dispatch).nodes, []);
});
