// The room's own word list and the evening's history, as one seat knows them: the owner's last `words_report`
// (and the text it answers, so a refused line can be quoted back to the one who typed it), the export asked of the
// host, and every game record (`history`) by its number. The seat reducer (seat.mjs) calls these; they return
// what changes and the effects (a file to save), and never hold a word of the list the owner did not type.
import { line } from "../strings.mjs";
import { isModerator, isOwner } from "./game.mjs";

/** The host refuses a `words` text over 48 KiB whole; a frame over 64 KiB would end the connection. */
export const WORDS_TEXT_BYTES = 48 * 1024;

/** The list's words and the page's own state about them, before anything is sent. */
export function newWords() {
  return {
    sent: "", // the text of the last `words` sent: the report's line numbers point into it
    sending: false, // a `words` or `words_clear` waits for its report
    report: null, // the last `words_report`: { added, total, refused, moreRefused }
    problem: null, // why the page did not send (too big, an unreadable file)
    exportAsked: false, // a `words_export` waits for its `word_list`
  };
}

/**
 * Folds a `words_report`, a `word_list` or a `history` into `seat` (the reducer's copy); `fx` runs an effect. A
 * link that goes down, or a move it could not send, ends the wait for an answer: the host sends none again, and
 * the room's count says what the list holds once the link is back.
 */
export function foldEvening(seat, message, fx) {
  const down = (message.type === "link" && message.status !== "connected") || message.type === "send_failed";
  if (down && (seat.words.sending || seat.words.exportAsked)) seat.words = { ...seat.words, sending: false, exportAsked: false };
  if (message.type === "words_report") {
    const asked = seat.words.sending && seat.words.sent !== "";
    seat.words = foldWordsReport(seat.words, message);
    const report = seat.words.report;
    if (asked && report.refused.length === 0 && report.moreRefused === 0) fx({ type: "words_kept" });
  }
  if (message.type === "history") seat.history = foldHistory(seat.history, message);
  if (message.type === "word_list") {
    const folded = foldWordList(seat.words, message, seat.room);
    seat.words = folded.words;
    for (const effect of folded.effects) fx(effect);
  }
}

/** Whether this seat keeps the room's list: the owner, or the moderator (法官), as the host allows. */
export function keepsList(seat) {
  return isOwner(seat) || isModerator(seat);
}

/** The size of `text` in UTF-8 bytes, as the host counts it. */
export function utf8Bytes(text) {
  return new TextEncoder().encode(text).length;
}

/** Why the page will not send `text`, or null: nothing to send, or more than the host takes. */
export function wordsTextProblem(text) {
  if (!text || text.trim() === "") return line("ownWords.empty");
  const bytes = utf8Bytes(text);
  if (bytes > WORDS_TEXT_BYTES) return line("ownWords.tooBig", Math.ceil(bytes / 1024), WORDS_TEXT_BYTES / 1024);
  return null;
}

/** A `words_report`: what the list kept and every line it did not. */
export function foldWordsReport(words, message) {
  const refused = Array.isArray(message.refused) ? message.refused.filter((entry) => Number.isInteger(entry.line)) : [];
  const report = {
    added: Number.isInteger(message.added) ? message.added : 0,
    total: Number.isInteger(message.total) ? message.total : 0,
    refused,
    moreRefused: Number.isInteger(message.moreRefused) ? message.moreRefused : 0,
  };
  return { ...words, sending: false, problem: null, report };
}

/** A `word_list`: saved as a CSV file when this page asked for it, else dropped (nothing keeps the words). */
export function foldWordList(words, message, room) {
  if (!words.exportAsked) return { words, effects: [] };
  const pairs = Array.isArray(message.pairs) ? message.pairs : [];
  const name = `words-${room ? room.room : "room"}.csv`;
  return { words: { ...words, exportAsked: false }, effects: [{ type: "download", name, mime: "text/csv", text: wordListCsv(pairs) }] };
}

/** The room's list as a sheet the host (and a bank) reads back: a header naming the columns, one pair a row. */
export function wordListCsv(pairs) {
  const rows = [["civilian", "spy"], ...pairs.map((pair) => [pair.civilian, pair.spy])];
  return csv(rows, false);
}

/** The records of `history` folded in by game number (one sent again replaces its copy), oldest first. */
export function foldHistory(records, message) {
  const byGame = new Map(records.map((record) => [record.game, record]));
  for (const record of Array.isArray(message.games) ? message.games : []) {
    if (record && Number.isInteger(record.game) && Array.isArray(record.players)) byGame.set(record.game, record);
  }
  return [...byGame.values()].sort((a, b) => a.game - b.game);
}

/** The records the page shows: only at game over, and only of games that are over (never a running one's). */
export function shownHistory(seat) {
  const room = seat.room;
  if (!room || room.phase !== "gameOver") return [];
  return seat.history.filter((record) => record.game <= room.game);
}

/** One refused line as a sentence: its number (or run), the reason by its code, and the text the owner gave. */
export function refusalLine(entry, sentLines = []) {
  const where = Number.isInteger(entry.through) && entry.through > entry.line ? line("ownWords.lines", entry.line, entry.through) : line("ownWords.line", entry.line);
  const reason = { t: `ownWords.reason.${entry.reason}`, a: entry.reason === "duplicate" ? [entry.other] : [], fallback: entry.reason };
  const quoted = !Number.isInteger(entry.through) && sentLines[entry.line - 1] !== undefined ? sentLines[entry.line - 1].trim() : "";
  return { all: [where, reason, quoted ? line("ownWords.quote", quoted) : ""], sep: " · " };
}

/** The parts of a game record the page shows, as sentences and names of the players as they were then. */
export function recordSummary(record) {
  const nameIn = (id) => {
    const player = record.players.find((p) => p.player === id);
    return player ? player.name : id;
  };
  const of = (role) => record.players.filter((p) => p.role === role).map((p) => p.name);
  const outs = record.outs.map((out) =>
    out.reason === "voted" ? line("evening.outVoted", out.round, nameIn(out.player), out.votes, out.pk === true) : line(`evening.out.${out.reason}`, out.round, nameIn(out.player)),
  );
  const guesses = record.guesses.map((guess) => line("evening.guess", guess.round, nameIn(guess.player), guess.word, guess.correct === true));
  const points = record.players.map((p) => line("evening.points", p.name, p.points));
  return { game: record.game, civilianWord: record.civilianWord, spyWord: record.spyWord, winner: record.winner, spies: of("spy"), blank: of("blank"), outs, guesses, points };
}

/** The evening as a sheet: one row per player per game, with the game's pair, winner, and how that player fared. */
export function historyCsv(records) {
  const rows = [["game", "civilianWord", "spyWord", "winner", "player", "name", "role", "points", "survived", "outRound", "outReason", "votes", "pk", "guess", "guessCorrect"]];
  for (const record of records) {
    for (const player of record.players) {
      const out = record.outs.find((o) => o.player === player.player);
      const guess = record.guesses.filter((g) => g.player === player.player).pop();
      rows.push([
        record.game,
        record.civilianWord,
        record.spyWord,
        record.winner,
        player.player,
        player.name,
        player.role,
        player.points,
        player.survived,
        out ? out.round : "",
        out ? out.reason : "",
        out && out.votes !== undefined ? out.votes : "",
        out && out.pk !== undefined ? out.pk : "",
        guess && guess.word !== undefined ? guess.word : "",
        guess ? guess.correct : "",
      ]);
    }
  }
  return csv(rows, true);
}

/** The evening as JSON: the records exactly as the host sent them. */
export function historyJson(records, roomCode) {
  return `${JSON.stringify({ room: roomCode || "", games: records }, null, 2)}\n`;
}

/**
 * RFC 4180 rows. With `formulaSafe`, a text a spreadsheet would take for a formula (=, +, -, @ first) gets a
 * leading apostrophe: names and guesses come from players. The word list is not changed so: it is read back.
 */
function csv(rows, formulaSafe) {
  const field = (value) => {
    let text = String(value);
    if (formulaSafe && typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}
