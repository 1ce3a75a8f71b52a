// The room's own word list and the evening's history on the player page. Between games everyone sees the list's
// count; the owner (and the moderator) also gets the box to paste or upload pairs, the host's answer line by line, the choice of where
// the next game's pair comes from, the export and the clear. At game over, the records of this game and the ones
// before, with their export. The pure parts (`wordsPanel`, `historyItems`) are functions of the model and a
// sentence table, tested under node; `renderEvening` writes them into the page's markup through dom.mjs.
import { h, patch, set } from "../shell/dom.mjs";
import { keepsList, recordSummary, refusalLine, shownHistory } from "../core/evening.mjs";
import { inGame, isOwner } from "../core/game.mjs";
import { say } from "../strings.mjs";

/** What the words card shows for the page's own seat. */
export function wordsPanel(model, seat, L) {
  const room = seat.room;
  const shown = Boolean(room) && !inGame(room);
  const count = room && Number.isInteger(room.wordCount) ? room.wordCount : 0;
  const owner = keepsList(seat);
  const words = seat.words;
  const panel = {
    shown,
    count: count > 0 ? L.ownWords.count(count) : L.ownWords.none,
    owner: shown && owner,
    chooseSource: isOwner(seat), // the word source is a setting: the owner's alone
    // Everyone else is told where the next pair comes from; the owner's menu says it.
    source: shown && !owner && room.settings.wordSource ? L.ownWords.source(L.wordSource[room.settings.wordSource] || room.settings.wordSource) : "",
    draft: model.ui.words.draft,
    draftKey: model.ui.words.draftKey,
    sending: words.sending,
    problem: words.problem ? say(L, words.problem) : "",
    kept: "",
    refused: [],
    canExport: count > 0,
    canClear: count > 0,
  };
  const report = words.report;
  if (panel.owner && report) {
    panel.kept = L.ownWords.kept(report.added, report.total, report.refused.length + report.moreRefused);
    const lines = words.sent.split(/\r\n|\n|\r/);
    panel.refused = report.refused.map((entry) => ({ line: entry.line, text: say(L, refusalLine(entry, lines)) }));
    if (report.moreRefused > 0) panel.refused.push({ line: 0, text: L.ownWords.moreRefused(report.moreRefused) });
  }
  return panel;
}

/** The refused lines as list items, each marked with its line number. */
export function refusedItems(panel) {
  return panel.refused.map((entry, i) => h("li", { key: `${entry.line}/${i}`, dataset: { line: entry.line }, text: entry.text }));
}

/** The evening's records at game over, newest first: the game's line, its facts, who went out, the scores. */
export function historyItems(seat, L) {
  const records = shownHistory(seat);
  return records
    .slice()
    .reverse()
    .map((record) => {
      const s = recordSummary(record);
      const row = (kind, label, value) => h("div", { key: kind, class: `history-${kind}` }, h("dt", { text: label }), h("dd", { text: value }));
      const list = (kind, entries) => h("ul", { key: kind, class: `history-${kind}` }, entries.map((entry, j) => h("li", { key: j, text: say(L, entry) })));
      return h(
        "li",
        { key: `g${record.game}`, class: "history-game", dataset: { game: record.game } },
        h("h3", { class: "history-title", text: L.evening.title(s.game, L.winner[s.winner] || s.winner) }),
        h(
          "dl",
          { class: "history-facts" },
          row("pair", L.evening.pair, `${s.civilianWord} / ${s.spyWord}`),
          row("spies", L.evening.spies, L.list(s.spies)),
          s.blank.length > 0 ? row("blank", L.evening.blank, L.list(s.blank)) : null,
        ),
        list("outs", s.outs.length > 0 ? s.outs : [L.evening.nobodyOut]),
        s.guesses.length > 0 ? list("guesses", s.guesses) : null,
        list("points", s.points),
      );
    });
}

const $ = (id) => document.getElementById(id);

/** Writes the words card and the history card of the page's own seat into the page's markup. */
export function renderEvening(model, seat, L) {
  const panel = wordsPanel(model, seat, L);
  set($("words"), { hidden: !panel.shown });
  set($("words-count"), { text: panel.count });
  set($("words-source"), { text: panel.source, hidden: !panel.source });
  set($("words-owner"), { hidden: !panel.owner });
  if (panel.owner) {
    set($("set-wordSource"), { disabled: !panel.chooseSource });
    set($("words-text"), { value: panel.draft, valueKey: panel.draftKey });
    set($("words-send"), { disabled: panel.sending });
    set($("words-problem"), { text: panel.problem });
    set($("words-kept"), { text: panel.kept });
    patch($("words-refused"), refusedItems(panel));
    set($("words-report"), { hidden: !panel.kept });
    set($("words-export"), { disabled: !panel.canExport });
    set($("words-clear"), { disabled: !panel.canClear });
  }
  const items = historyItems(seat, L);
  set($("history"), { hidden: items.length === 0 });
  patch($("history-list"), items);
}
