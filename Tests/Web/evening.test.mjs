// The room's own word list and the evening's history on the player page, through the one reducer and the intents:
// the owner's box, the host's answer line by line in each language, the export and the clear, the count everyone
// else sees; the records of the evening shown at game over only, and saved as CSV and JSON. The host's messages
// are those of docs/PROTOCOL.md.
import assert from "node:assert/strict";
import { test } from "node:test";
import { historyCsv, historyJson, WORDS_TEXT_BYTES, wordListCsv } from "../../Sources/SpyWeb/Assets/core/evening.mjs";
import { act } from "../../Sources/SpyWeb/Assets/core/intents.mjs";
import { firstSeat, initialModel, receive } from "../../Sources/SpyWeb/Assets/core/model.mjs";
import { say, STRINGS } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { historyItems, refusedItems, wordsPanel } from "../../Sources/SpyWeb/Assets/views/evening-view.mjs";

const L = STRINGS.en;
const SETTINGS = {
  maxPlayers: 10, spies: 1, blank: true, clueMode: "spoken", turnSeconds: 0, voteSeconds: 0, tieRule: "pk", revealOut: true,
  blankRule: "survive", spyWin: "three", spyLastChance: false, wordSource: "bank", language: "both", allowParty: false, categories: [],
};
const NAMES = ["Amy", "小明", "Bea", "Ken", "Lin", "Mo"];

function room(phase, game, fields = {}) {
  const seats = NAMES.map((name, i) => ({ id: `p${i + 1}`, seat: i + 1, name, owner: i === 0, connected: true, bot: false, alive: true, voted: false, score: 0 }));
  return { type: "room", room: "KFRW", phase, game, round: game > 0 ? 1 : 0, settings: SETTINGS, seats, pk: [], clues: [], ...fields };
}

/** A page seated as `you` (p1 is the owner) in the lobby of room KFRW, given `messages` after its welcome. */
function page(you = "p1", ...messages) {
  let model = initialModel({ lang: "en" });
  const key = model.seats[0].key;
  const feed = (message) => {
    const result = receive(model, key, message, 0);
    model = result.model;
    return result.effects;
  };
  feed({ type: "link", status: "connected" });
  feed({ type: "welcome", you, token: `t-${you}`, room: "KFRW", resumed: false });
  feed(room("lobby", 0));
  for (const message of messages) feed(message);
  return { get model() { return model; }, feed, key, act: (intent) => {
    const result = act(model, intent, 0);
    model = result.model;
    return result.effects;
  } };
}

const sends = (effects) => effects.filter((e) => e.type === "send").map((e) => e.message);

const PASTED = ["婚紗,禮服", "伴郎——伴娘", "新郎", "蛋糕/喜餅", "婚紗，禮服", "紅包\t禮金", "a,b", "x,y", "z,w", "q,r", "s,t"].join("\n");
const REPORT = {
  type: "words_report", added: 3, total: 37,
  refused: [
    { line: 3, reason: "no_separator" },
    { line: 5, reason: "duplicate", other: 1 },
    { line: 7, reason: "contains_other" },
    { line: 8, through: 11, reason: "list_full" },
  ],
  moreRefused: 2,
};

test("the owner's box sends the pasted pairs, and the host's answer names every refused line, its reason and text", () => {
  const p = page();
  let panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.shown, true);
  assert.equal(panel.owner, true);
  assert.equal(panel.count, "Our words: none yet");
  assert.equal(panel.canExport, false);
  const effects = p.act({ type: "words_send", text: PASTED, replace: false });
  assert.deepEqual(sends(effects), [{ type: "words", text: PASTED }]);
  panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.sending, true, "the button waits for the host's answer");
  assert.equal(panel.draft, PASTED, "the box keeps what was sent");

  p.feed(REPORT);
  p.feed(room("lobby", 0, { wordCount: 37 }));
  panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.sending, false);
  assert.equal(panel.count, "Our words: 37 pairs");
  assert.equal(panel.kept, "Kept 3 new pairs; the list holds 37. 6 lines were not kept:");
  assert.deepEqual(panel.refused.map((r) => r.line), [3, 5, 7, 8, 0]);
  assert.deepEqual(panel.refused.map((r) => r.text), [
    "Line 3 · only one word (no comma, tab, / or ——) · “新郎”",
    "Line 5 · the same pair as line 1 · “婚紗，禮服”",
    "Line 7 · one word contains the other · “a,b”",
    "Lines 8–11 · the list is full (500 pairs or 24 KiB)",
    "and 2 more lines",
  ]);
  assert.deepEqual(refusedItems(panel).map((item) => item.props.dataset.line), [3, 5, 7, 8, 0]);
  assert.equal(panel.canExport, true);
  assert.equal(panel.draft, PASTED, "lines were refused: the box keeps them to be mended");
  // Replacing the list is asked for with `replace`; a text kept whole leaves the box empty for the next.
  assert.deepEqual(sends(p.act({ type: "words_send", text: "咖啡,奶茶", replace: true })), [{ type: "words", text: "咖啡,奶茶", replace: true }]);
  p.feed({ type: "words_report", added: 1, total: 1, refused: [] });
  panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.draft, "");
  assert.equal(panel.draftKey, 1, "the box is written again");
  assert.equal(panel.kept, "Kept 1 new pair; the list holds 1. Every line was read.");
});

test("every refusal reason the host names reads as a sentence in every language; an unknown one shows its code", () => {
  const reasons = ["no_separator", "too_many_words", "missing_word", "too_long", "control_character", "invisible_character", "no_visible_letter",
    "same_words", "contains_other", "duplicate", "already_listed", "list_full", "unclosed_quote"];
  for (const [lang, table] of Object.entries(STRINGS)) {
    const p = page();
    p.act({ type: "words_send", text: reasons.map((_, i) => `詞${i}`).join("\n") });
    p.feed({ type: "words_report", added: 0, total: 0, refused: reasons.map((reason, i) => ({ line: i + 1, reason, other: 1 })).concat([{ line: 20, reason: "brand_new" }]) });
    const panel = wordsPanel(p.model, firstSeat(p.model), table);
    const texts = panel.refused.map((r) => r.text);
    assert.equal(new Set(texts).size, texts.length, `${lang}: each reason has its own sentence`);
    for (const [i, reason] of reasons.entries()) {
      assert.ok(!texts[i].includes(reason), `${lang}: ${reason} is said in words: ${texts[i]}`);
      assert.ok(texts[i].includes(String(i + 1)), `${lang}: the line number is shown: ${texts[i]}`);
    }
    assert.ok(texts[texts.length - 1].includes("brand_new"), `${lang}: a newer host's reason shows its code`);
  }
});

test("a text over the host's 48 KiB is not sent, nor an empty one; a file is read into the box, one too big refused", () => {
  const p = page();
  const big = "長頸鹿,斑馬\n".repeat(Math.ceil(WORDS_TEXT_BYTES / 16) + 1);
  assert.deepEqual(p.act({ type: "words_send", text: big }), []);
  assert.match(wordsPanel(p.model, firstSeat(p.model), L).problem, /the host takes at most 48 KiB/);
  assert.deepEqual(p.act({ type: "words_send", text: "  \n " }), []);
  assert.equal(wordsPanel(p.model, firstSeat(p.model), L).problem, "Paste or read some pairs first");
  // Just under the cap in UTF-8 bytes (not characters) goes.
  const fits = "好".repeat(Math.floor(WORDS_TEXT_BYTES / 3) - 2) + ",a";
  assert.equal(sends(p.act({ type: "words_send", text: fits })).length, 1);

  const q = page();
  q.act({ type: "words_draft", tooBig: true });
  assert.match(wordsPanel(q.model, firstSeat(q.model), L).problem, /over 48 KiB/);
  q.act({ type: "words_draft", text: "civilian,spy\n咖啡,奶茶\n" });
  const panel = wordsPanel(q.model, firstSeat(q.model), L);
  assert.equal(panel.draft, "civilian,spy\n咖啡,奶茶\n");
  assert.equal(panel.problem, "");
  assert.equal(panel.draftKey, 1, "the box is written again with the file's text");
});

test("the export saves the host's list as CSV, asked for only; the clear asks first", () => {
  const p = page("p1", room("lobby", 0, { wordCount: 2 }));
  assert.deepEqual(sends(p.act({ type: "words_export" })), [{ type: "words_export" }]);
  const pairs = [{ civilian: "婚紗", spy: "禮服" }, { civilian: "say \"hi\"", spy: "a,b" }];
  const effects = p.feed({ type: "word_list", pairs });
  const download = effects.find((e) => e.type === "download");
  assert.equal(download.name, "words-KFRW.csv");
  assert.equal(download.text, 'civilian,spy\r\n婚紗,禮服\r\n"say ""hi""","a,b"\r\n');
  assert.equal(download.text, wordListCsv(pairs));
  assert.equal(p.feed({ type: "word_list", pairs }).filter((e) => e.type === "download").length, 0, "a list not asked for is not saved");

  const asked = p.act({ type: "words_clear" });
  assert.deepEqual(sends(asked), []);
  assert.equal(p.model.ui.confirm.kind, "words_clear");
  assert.equal(say(L, p.model.ui.confirm.question), "Clear our words (2 pairs)? Save them as CSV first to keep them.");
  assert.deepEqual(sends(p.act({ type: "answer", yes: false })), []);
  p.act({ type: "words_clear" });
  assert.deepEqual(sends(p.act({ type: "answer", yes: true })), [{ type: "words_clear" }]);
  p.feed({ type: "words_report", added: 0, total: 0, refused: [] });
  p.feed(room("lobby", 0));
  const panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.count, "Our words: none yet");
  assert.equal(panel.kept, "Kept 0 new pairs; the list holds 0. Every line was read.");
});

test("everyone else sees the count only, and nobody sees the card while a game runs", () => {
  const p = page("p2", room("lobby", 0, { wordCount: 37 }));
  const panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.shown, true);
  assert.equal(panel.owner, false);
  assert.equal(panel.count, "Our words: 37 pairs");
  assert.equal(panel.source, "Words from: the host's bank");
  p.feed(room("lobby", 0, { wordCount: 37, settings: { ...SETTINGS, wordSource: "ours" } }));
  assert.equal(wordsPanel(p.model, firstSeat(p.model), STRINGS["zh-TW"]).source, "詞從哪裡來：只用我們的詞");
  assert.deepEqual(p.act({ type: "words_send", text: "咖啡,奶茶" }), [], "a player who is not the owner sends nothing");
  assert.deepEqual(p.act({ type: "words_export" }), []);
  for (const [lang, table] of Object.entries(STRINGS)) assert.ok(table.ownWords.count(37).includes("37"), lang);

  const owner = page("p1", room("describing", 1, { wordCount: 37, turn: "p1" }));
  assert.equal(wordsPanel(owner.model, firstSeat(owner.model), L).shown, false);
  assert.deepEqual(owner.act({ type: "words_send", text: "咖啡,奶茶" }), [], "no list is changed during a game");
  assert.deepEqual(owner.act({ type: "words_export" }), [], "the running game's pair may be in the list");
  assert.deepEqual(owner.act({ type: "words_clear" }), []);
});

test("a link that drops while the host's answer is awaited gives the button back", () => {
  const p = page();
  p.act({ type: "words_send", text: "咖啡,奶茶" });
  assert.equal(wordsPanel(p.model, firstSeat(p.model), L).sending, true);
  p.feed({ type: "link", status: "reconnecting", attempt: 1 });
  assert.equal(wordsPanel(p.model, firstSeat(p.model), L).sending, false);
  p.act({ type: "words_export" });
  p.feed({ type: "send_failed", message: { type: "words_export" } });
  assert.equal(firstSeat(p.model).words.exportAsked, false, "a list that comes later is not saved unasked");
});

test("the moderator keeps the list as the owner does", () => {
  const judged = room("lobby", 0, { wordCount: 3 });
  judged.seats = judged.seats.map((seat) => (seat.id === "p2" ? { ...seat, moderator: true } : seat));
  const p = page("p2", judged);
  const panel = wordsPanel(p.model, firstSeat(p.model), L);
  assert.equal(panel.owner, true);
  assert.equal(panel.chooseSource, false, "the word source is the owner's setting");
  assert.deepEqual(sends(p.act({ type: "words_send", text: "咖啡,奶茶" })), [{ type: "words", text: "咖啡,奶茶" }]);
  assert.deepEqual(sends(p.act({ type: "words_export" })), [{ type: "words_export" }]);
});

test("a refused words gives the button back and says why", () => {
  const p = page();
  p.act({ type: "words_send", text: "咖啡,奶茶" });
  p.feed({ type: "error", code: "bad_words", message: "too big" });
  const seat = firstSeat(p.model);
  assert.equal(wordsPanel(p.model, seat, L).sending, false);
  assert.equal(say(L, seat.notice), L.problem.bad_words);
});

const GAME1 = {
  game: 1, civilianWord: "咖啡", spyWord: "奶茶", winner: "civilians",
  players: [
    { player: "p1", name: "Amy", role: "civilian", points: 3, survived: true },
    { player: "p2", name: "小明", role: "spy", points: 0, survived: false },
    { player: "p3", name: "Bea", role: "blank", points: 0, survived: false },
    { player: "p4", name: "Ken", role: "civilian", points: 0, survived: false },
    { player: "p5", name: "Lin", role: "civilian", points: 3, survived: true },
    { player: "p6", name: "=Mo", role: "civilian", points: 3, survived: true },
  ],
  outs: [
    { player: "p4", round: 1, reason: "voted", votes: 2, pk: true },
    { player: "p3", round: 2, reason: "voted", votes: 4, pk: false },
    { player: "p2", round: 3, reason: "voted", votes: 3, pk: false },
  ],
  guesses: [{ player: "p3", round: 2, word: "可可", correct: false }],
};
const GAME2 = {
  game: 2, civilianWord: "婚紗", spyWord: "禮服", winner: "spies",
  players: [
    { player: "p1", name: "Amy", role: "spy", points: 3, survived: true },
    { player: "p2", name: "小明", role: "civilian", points: 0, survived: true },
    { player: "p4", name: "Ken", role: "civilian", points: 0, survived: false },
    { player: "p5", name: "Lin", role: "civilian", points: 0, survived: true },
  ],
  outs: [{ player: "p4", round: 1, reason: "left" }],
  guesses: [],
};

test("the evening's history shows at game over only, newest first, with who went out when and by how many votes", () => {
  const p = page("p2");
  // On arrival the records of earlier games come with the lobby: not shown before a game is over.
  p.feed({ type: "history", games: [GAME1] });
  assert.deepEqual(historyItems(firstSeat(p.model), L), []);
  p.feed(room("describing", 2, { turn: "p1" }));
  assert.deepEqual(historyItems(firstSeat(p.model), L), [], "nothing while the next game runs");
  assert.deepEqual(p.act({ type: "history_export", format: "csv" }), []);
  p.feed({ type: "history", games: [GAME2] });
  p.feed(room("gameOver", 2, { winner: "spies" }));
  const items = historyItems(firstSeat(p.model), L);
  assert.deepEqual(items.map((item) => item.props.dataset.game), [2, 1]);
  const text = (node) => (typeof node === "string" ? node : [node.props.text ?? "", ...node.children.map(text)].join("|"));
  const [second, first] = items.map(text);
  assert.match(second, /Game 2 · The spies win!/);
  assert.match(second, /Round 1: Ken left/);
  assert.match(second, /Amy \+3/);
  assert.match(first, /咖啡 \/ 奶茶/);
  assert.match(first, /Spies\|小明/);
  assert.match(first, /Blank\|Bea/);
  assert.match(first, /Round 1: Ken voted out with 2 votes \(PK\)/);
  assert.match(first, /Round 2: Bea voted out with 4 votes\|/);
  assert.match(first, /Round 2: Bea guessed “可可”: wrong/);
  for (const [lang, table] of Object.entries(STRINGS)) {
    const all = historyItems(firstSeat(p.model), table).map(text).join("\n");
    assert.ok(all.includes("可可") && all.includes("Ken"), `${lang} shows the records`);
  }
  // A record sent again replaces its copy; the next lobby hides them all.
  p.feed({ type: "history", games: [{ ...GAME1, winner: "blank" }] });
  assert.equal(firstSeat(p.model).history.length, 2);
  assert.equal(firstSeat(p.model).history[0].winner, "blank");
  p.feed(room("lobby", 2));
  assert.deepEqual(historyItems(firstSeat(p.model), L), []);
});

test("the history is saved from the page as CSV and JSON from the records the host sent", () => {
  const p = page("p3", { type: "history", games: [GAME1, GAME2] }, room("gameOver", 2, { winner: "spies" }));
  const [csvFile] = p.act({ type: "history_export", format: "csv" });
  assert.equal(csvFile.type, "download");
  assert.equal(csvFile.name, "history-KFRW.csv");
  assert.equal(csvFile.text, historyCsv([GAME1, GAME2]));
  const rows = csvFile.text.trim().split("\r\n");
  assert.equal(rows[0], "game,civilianWord,spyWord,winner,player,name,role,points,survived,outRound,outReason,votes,pk,guess,guessCorrect");
  assert.equal(rows.length, 1 + 6 + 4);
  assert.equal(rows[3], "1,咖啡,奶茶,civilians,p3,Bea,blank,0,false,2,voted,4,false,可可,false");
  assert.equal(rows[4], "1,咖啡,奶茶,civilians,p4,Ken,civilian,0,false,1,voted,2,true,,");
  assert.equal(rows[6], "1,咖啡,奶茶,civilians,p6,'=Mo,civilian,3,true,,,,,,", "a name a spreadsheet would run is kept as text");
  assert.equal(rows[9], "2,婚紗,禮服,spies,p4,Ken,civilian,0,false,1,left,,,,");
  const [jsonFile] = p.act({ type: "history_export", format: "json" });
  assert.equal(jsonFile.name, "history-KFRW.json");
  assert.equal(jsonFile.text, historyJson([GAME1, GAME2], "KFRW"));
  assert.deepEqual(JSON.parse(jsonFile.text), { room: "KFRW", games: [GAME1, GAME2] });
});
