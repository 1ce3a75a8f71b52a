// The board's own pieces, as descriptions for shell/dom.mjs `patch`: a closed vote as the room looks up to read it
// (who is out, who they were, the tally), the clues as a TV shows them (the latest round in full, the ones before
// one line each, a PK's re-descriptions marked, spoken turns as one line), and the evening's finished games.
// Functions of the board's seat and a sentence table only.
import { h } from "../shell/dom.mjs";
import { nameOf } from "../core/game.mjs";

/** The rounds shown in full or folded: the latest and the four before it. */
const ROUNDS_SHOWN = 5;

/** At most this many finished games are listed, the latest first. */
const HISTORY_SHOWN = 8;

/**
 * A closed vote as the board shows it: `name` the big line (who is out, the tied players, or nobody), `verdict`
 * what it means (out and their role as revealed, a PK), the tally most votes first, and who cast no ballot.
 */
export function votePanel(seat, result, L) {
  const names = (ids) => L.list(ids.map((id) => nameOf(seat, id)));
  const panel = { outcome: result.outcome, name: "", verdict: "", role: "", tally: [], abstained: "" };
  if (result.outcome === "out") {
    panel.name = nameOf(seat, result.out);
    panel.role = result.identity || "";
    panel.verdict = [L.board.isOut, result.identity ? L.board.wasRole(L.role[result.identity]) : L.board.roleKept].join(" · ");
  } else if (result.outcome === "pk") {
    panel.name = names(result.tied);
    panel.verdict = L.board.tie;
  } else {
    panel.name = L.board.nobodyOut;
  }
  panel.tally = [...result.tally]
    .sort((a, b) => b.voters.length - a.voters.length)
    .map((entry) => ({
      player: entry.player,
      out: entry.player === result.out,
      text: L.board.tallyLine(nameOf(seat, entry.player), entry.voters.length, names(entry.voters)),
    }));
  if (result.abstained.length > 0) panel.abstained = L.board.abstained(names(result.abstained));
  return panel;
}

/** A vote panel's tally as list items. */
export function tallyItems(panel) {
  return panel.tally.map((entry) => h("li", { key: entry.player, class: entry.out ? "tally is-out" : "tally", dataset: { player: entry.player }, text: entry.text }));
}

/**
 * Which clues of a round are a PK's re-descriptions: a player's second clue in the same round (the first vote
 * tied, and the tied players describe again).
 */
export function pkFlags(clues) {
  const seen = new Set();
  return clues.map((clue) => {
    const key = `${clue.round}/${clue.player}`;
    const again = seen.has(key);
    seen.add(key);
    return again;
  });
}

/**
 * The clues of the game on the board: the rounds before the latest one line each (with a PK's re-descriptions
 * counted apart), the latest in full. A PK's re-descriptions come under a PK line; in a spoken room the turns
 * without a written clue are one line naming who has described, in order.
 */
export function boardClueItems(seat, room, L) {
  const items = [];
  if (room.clues.length === 0) return [h("li", { key: "empty", class: "empty", text: L.noClues })];
  const pk = pkFlags(room.clues);
  const latest = room.clues[room.clues.length - 1].round;
  const spoken = room.settings.clueMode === "spoken";
  const rounds = [...new Set(room.clues.map((clue) => clue.round))].filter((round) => round > latest - ROUNDS_SHOWN);
  for (const round of rounds) {
    const inRound = room.clues.map((clue, index) => ({ clue, index, pk: pk[index] })).filter((entry) => entry.clue.round === round);
    if (round < latest) {
      const again = inRound.filter((entry) => entry.pk).length;
      items.push(h("li", { key: `r${round}f`, class: "clue-round folded", text: L.board.roundFolded(round, inRound.length - again, again) }));
      continue;
    }
    items.push(h("li", { key: `r${round}`, class: "clue-round", text: L.round(round) }));
    let group = null;
    let pkShown = false;
    for (const { clue, index, pk: again } of inRound) {
      if (again && !pkShown) {
        pkShown = true;
        group = null;
        items.push(h("li", { key: `r${round}pk`, class: "clue-round pk-mark", text: L.board.pkMark }));
      }
      if (spoken && clue.text === undefined) {
        if (!group) {
          group = { key: `s${index}`, names: [] };
          items.push(group);
        }
        group.names.push(nameOf(seat, clue.player));
        continue;
      }
      group = null;
      const text = clue.text === undefined ? L.passed : clue.text;
      items.push(
        h(
          "li",
          { key: `c${index}`, class: `clue${clue.text === undefined ? " no-text" : ""}${again ? " pk" : ""}`, dataset: { player: clue.player } },
          h("span", { class: "clue-name", text: `${nameOf(seat, clue.player)}${L.board.colon}` }),
          h("span", { class: "clue-text", text }),
        ),
      );
    }
  }
  return items.map((item) =>
    item.names ? h("li", { key: item.key, class: "clue spoken-turns", text: L.board.spokenRound(L.list(item.names)) }) : item,
  );
}

/**
 * The evening's finished games as list items, the latest first: number and winner, the pair, the spies and the
 * blank, who went out when. Only games over by the board's game number: nothing of a running game.
 */
export function historyItems(records, room, L) {
  const done = records.filter((record) => record.game <= room.game).slice(-HISTORY_SHOWN).reverse();
  return done.map((record) => {
    const named = (role) => record.players.filter((player) => player.role === role).map((player) => player.name);
    const nameOfPlayer = (id) => {
      const player = record.players.find((p) => p.player === id);
      return player ? player.name : id;
    };
    const parts = [L.board.historyPair(record.civilianWord, record.spyWord), L.board.historySpies(L.list(named("spy")))];
    const blanks = named("blank");
    if (blanks.length > 0) parts.push(L.board.historyBlank(L.list(blanks)));
    const outs = record.outs.map((out) => L.board.historyOut(nameOfPlayer(out.player), out.round, out.reason, out.pk === true));
    return h(
      "li",
      { key: `g${record.game}`, class: "evening-game", dataset: { game: record.game } },
      h("p", { class: "evening-title", text: L.board.historyGame(record.game, L.winner[record.winner] || record.winner) }),
      h("p", { class: "evening-line", text: parts.join(" · ") }),
      h("p", { class: "evening-line", text: outs.length > 0 ? L.board.historyOuts(L.list(outs)) : L.board.historyNoOuts }),
    );
  });
}

/** The hand-over of the room, while it is news: in the phase it happened in, or until the next game starts. */
export function ownerNewsLine(seat, L) {
  const news = seat.ownerNews;
  const room = seat.room;
  if (!news || !room || news.game !== room.game) return "";
  const between = (phase) => phase === "lobby" || phase === "gameOver";
  if (room.phase !== news.phase && !(between(room.phase) && between(news.phase))) return "";
  return L.board.ownerNews(nameOf(seat, news.player), nameOf(seat, news.previous), news.reason);
}
