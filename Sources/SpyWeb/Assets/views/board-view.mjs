// The board's view (/board): the room, the join panel with its QR code, what the table is doing now, the seats,
// the clues (the latest round in full, the four before it one line each), a vote's result and the reveal. A
// function of the board's one public-only seat and the page's `ui`; it writes the document only through dom.mjs.
import { h, patch, set } from "../shell/dom.mjs";
import { firstSeat, titleOf } from "../core/model.mjs";
import { nameOf, secondsLeft, votersOf } from "../core/game.mjs";
import { say, STRINGS } from "../strings.mjs";
import { clueItems, linkText, resultItems, revealItems, seatItems, whereLine } from "./common.mjs";
import { languageMenu, staticText } from "./static-text.mjs";

const $ = (id) => document.getElementById(id);

/** Draws the board from `model` at `now`. */
export function renderBoard(model, now, dispatch) {
  const L = STRINGS[model.ui.lang];
  const seat = firstSeat(model);
  const room = seat.room;
  staticText(L);
  languageMenu($("lang-menu"), model.ui.lang, L, dispatch);
  document.title = titleOf(model, L);
  set($("where"), { text: room ? whereLine(room, L) : "" });
  set($("link"), { text: linkText(seat, L), class: `link link-${seat.link === "idle" ? "idle" : seat.link}` });
  const problem = seat.problem ? say(L, seat.problem) : "";
  set($("problem"), { hidden: !problem, text: problem });
  // A lost host is said across the room, not in the header's small print.
  const lost = seat.everConnected && (seat.link === "reconnecting" || (seat.link === "closed" && !seat.problem));
  set($("offline"), { hidden: !lost, text: seat.link === "closed" ? L.connectionClosed : L.lostHost });
  document.body.classList.toggle("board-game", Boolean(room) && room.phase !== "lobby");
  document.body.classList.toggle("board-lobby", !room || room.phase === "lobby");
  const asking = (seat.needRoom || seat.needPassword) && seat.link === "closed";
  set($("board-join"), { hidden: !asking, onsubmit: (event) => {
    event.preventDefault();
    dispatch({ type: "board_join", room: $("board-room").value, password: $("board-password").value });
  } });
  set($("board-room-field"), { hidden: !seat.needRoom });
  set($("board-password-field"), { hidden: !seat.needPassword });
  const wanted = model.ui.boardRoom;
  set($("room-code"), { text: room ? room.room : wanted });
  set($("join-url"), { text: joinURL(room, wanted) });
  set($("how-to-join"), { text: model.ui.qrShown ? L.scanOrOpen : L.openInBrowser });
  if (!room) return;
  set($("now"), { text: nowLine(seat, L) });
  const left = room.phase !== "gameOver" ? secondsLeft(seat.timer, now) : null;
  set($("timer"), { hidden: left === null, text: left === null ? "" : seat.timer.kind === "absent" ? L.absentTimer(left) : L.seconds(left) });
  const result = seat.result;
  // At game over the reveal takes the place of the last vote.
  set($("result"), { hidden: !result || ["voting", "lobby", "gameOver"].includes(room.phase) });
  patch($("result-lines"), result ? resultItems(seat, result, L) : []);
  const over = room.phase === "gameOver" ? seat.gameOver : null;
  set($("game-over"), { hidden: !over });
  if (over) {
    set($("winner"), { text: L.winner[over.winner] });
    set($("civilian-word"), { text: over.civilianWord });
    set($("spy-word"), { text: over.spyWord });
    const blank = over.reveal.find((entry) => entry.role === "blank");
    set($("blank-guess"), { text: over.blankGuess === undefined ? "" : L.blankGuess(nameOf(seat, blank && blank.player), over.blankGuess) });
    patch($("reveal"), revealItems(seat, over, null, L));
  }
  patch($("seats"), seatItems(room, null, L));
  // The latest round in full, the four before it one line each: the clues that matter now always fit.
  const latest = room.clues.length > 0 ? room.clues[room.clues.length - 1].round : 0;
  const recent = { ...room, clues: room.clues.filter((clue) => clue.round > latest - 5) };
  patch($("clues"), clueItems(seat, recent, L, latest));
  set($("clues-card"), { hidden: room.phase === "lobby" });
  fitCards();
}

/** The address players open: this page's own host, with the room when the board names one. */
function joinURL(room, wanted) {
  const code = room ? room.room : wanted;
  const base = `${location.protocol}//${location.host}/`;
  return /^[A-Z]{4}$/.test(wanted) && code ? `${base}?room=${code}` : base;
}

/** One line on what the table is doing. */
function nowLine(seat, L) {
  const room = seat.room;
  switch (room.phase) {
    case "lobby":
      return L.waitingForStart;
    case "describing":
      return room.turn ? L.turnOf(nameOf(seat, room.turn)) : L.phase.describing;
    case "voting": {
      const voters = seat.voting ? seat.voting.voters : votersOf(room);
      const waiting = room.seats.filter((s) => voters.includes(s.id) && !s.voted);
      return `${L.votingOpened(room.pk.length > 0)} · ${L.waitVote}: ${L.list(waiting.map((s) => s.name))}`;
    }
    case "guessing":
      return L.guessOf(nameOf(seat, seat.guessing ? seat.guessing.player : undefined));
    default:
      return "";
  }
}

/**
 * Long typed clues, or long words in the reveal, may not fit a column of the TV view at the usual size: a smaller
 * size first (never under 2.5 % of the height), then one line each.
 */
export function fitCards() {
  for (const card of [$("clues-card"), $("now-card"), $("seats-card")]) {
    card.classList.remove("tight", "tighter");
    const overflows = () => card.scrollHeight > card.clientHeight + 1;
    if (overflows()) card.classList.add("tight");
    if (overflows()) card.classList.add("tighter");
  }
}
