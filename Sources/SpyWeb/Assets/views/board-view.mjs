// The board's view (/board): the room, the join panel with its QR code, what the table is doing now, the seats,
// the clues (the latest round in full, the four before it one line each), a vote's result as the room's news, the
// reveal with the vote that decided it, and between games the evening's games. `boardScreen` is a function of the
// board's one public-only seat and the page's `ui`; `renderBoard` writes it only through dom.mjs.
import { patch, set } from "../shell/dom.mjs";
import { firstSeat, titleOf } from "../core/model.mjs";
import { nameOf, secondsLeft, votersOf } from "../core/game.mjs";
import { say, STRINGS } from "../strings.mjs";
import { linkText, revealItems, seatItems, whereLine } from "./common.mjs";
import { boardClueItems, historyItems, ownerNewsLine, tallyItems, votePanel } from "./board-parts.mjs";
import { languageMenu, staticText } from "./static-text.mjs";

const $ = (id) => document.getElementById(id);

/**
 * What the board shows of `model` at `now`, in `L`'s words: the layout (`empty` before anyone joined, `lobby`,
 * `game`, `reveal` while a vote's result is the news, `over`), the lines of the now card, the vote panels, and the
 * lists as descriptions. A function of the model alone, tested under node.
 */
export function boardScreen(model, now, L) {
  const seat = firstSeat(model);
  const room = seat.room;
  if (!room) return { room: null, layout: "empty" };
  const phase = room.phase;
  const pkOn = room.pk.length > 0 && (phase === "describing" || phase === "voting");
  const screen = {
    room,
    layout: phase === "lobby" ? (room.seats.length === 0 ? "empty" : "lobby") : phase === "gameOver" ? "over" : "game",
    now: nowLine(seat, L),
    nowDetail: phase === "voting" ? stillToVote(seat, L) : "",
    settings: phase === "lobby" || phase === "gameOver" ? L.settingsLine(room.settings, L) : "",
    ownerNews: ownerNewsLine(seat, L),
    timer: "",
    vote: null,
    over: null,
    seats: room.seats.length > 0 ? seatItems(room, null, L) : [],
    clues: phase === "lobby" ? [] : boardClueItems(seat, room, L),
    history: phase === "lobby" || phase === "gameOver" ? historyItems(seat.history, room, L) : [],
  };
  const left = phase !== "gameOver" ? secondsLeft(seat.timer, now) : null;
  if (left !== null) screen.timer = seat.timer.kind === "absent" ? L.absentTimer(left) : L.seconds(left);
  // The vote on the board: the latest result, big until the next clue; during a PK the tie that led to it; at
  // game over the vote that decided it.
  const result = phase === "voting" ? (pkOn ? seat.tie : null) : phase === "lobby" ? null : seat.result;
  if (result) {
    const big = seat.result === result && seat.cluesSinceResult === 0 && (phase === "describing" || phase === "guessing");
    const heading = phase === "gameOver" ? L.board.decidingVote : pkOn && result.outcome === "pk" ? L.board.firstVote : big ? L.board.voteHeading : L.lastResult;
    // Where it shows: across the screen, in the now card, or beside the reveal.
    const place = big ? "vote-card" : phase === "gameOver" ? "deciding" : "result";
    screen.vote = { ...votePanel(seat, result, L), big, heading, place };
    if (big) screen.layout = "reveal";
  }
  const over = phase === "gameOver" ? seat.gameOver : null;
  if (over) {
    const blank = over.reveal.find((entry) => entry.role === "blank");
    screen.over = {
      winner: L.winner[over.winner],
      civilianWord: over.civilianWord,
      spyWord: over.spyWord,
      blankGuess: over.blankGuess === undefined ? "" : L.blankGuess(nameOf(seat, blank && blank.player), over.blankGuess),
      reveal: revealItems(seat, over, null, L),
    };
  }
  return screen;
}

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
  const screen = boardScreen(model, now, L);
  const inGame = Boolean(room) && room.phase !== "lobby";
  document.body.classList.toggle("board-game", inGame);
  document.body.classList.toggle("board-lobby", !inGame);
  document.body.classList.toggle("board-empty", screen.layout === "empty");
  document.body.classList.toggle("board-reveal", screen.layout === "reveal");
  document.body.classList.toggle("board-over", screen.layout === "over");
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
  set($("owner-news"), { hidden: !screen.ownerNews, text: screen.ownerNews || "" });
  if (!room) return;
  set($("now"), { text: screen.now });
  set($("now-detail"), { hidden: !screen.nowDetail, text: screen.nowDetail });
  set($("timer"), { hidden: !screen.timer, text: screen.timer });
  set($("board-settings"), { hidden: !screen.settings, text: screen.settings });
  const vote = screen.vote;
  for (const id of ["vote-card", "result", "deciding"]) {
    const shown = Boolean(vote) && vote.place === id;
    const card = $(id);
    set(card, { hidden: !shown });
    set(card.querySelector(".vote-heading"), { text: shown ? vote.heading : "" });
    set(card.querySelector(".vote-name"), { text: shown ? vote.name : "" });
    set(card.querySelector(".vote-verdict"), { hidden: !shown || !vote.verdict, text: shown ? vote.verdict : "", class: `vote-verdict role-${shown ? vote.role : ""}` });
    patch(card.querySelector(".tally-lines"), shown ? tallyItems(vote) : []);
    set(card.querySelector(".vote-abstained"), { hidden: !shown || !vote.abstained, text: shown ? vote.abstained : "" });
  }
  const reveal = screen.over;
  set($("game-over"), { hidden: !reveal });
  if (reveal) {
    set($("winner"), { text: reveal.winner });
    set($("civilian-word"), { text: reveal.civilianWord });
    set($("spy-word"), { text: reveal.spyWord });
    set($("blank-guess"), { text: reveal.blankGuess });
    patch($("reveal"), reveal.reveal);
  }
  set($("seats-card"), { hidden: screen.seats.length === 0 });
  patch($("seats"), screen.seats);
  // At game over the right column holds the vote that decided it and the evening's games.
  const over = room.phase === "gameOver";
  const history = over && screen.history.length > 0;
  patch($("clues"), screen.clues);
  set($("clues-card"), { hidden: room.phase === "lobby" || screen.layout === "reveal" || over });
  patch($("evening-games"), history ? screen.history : []);
  set($("evening-card"), { hidden: !over || (!history && !vote) });
  set($("evening-heading"), { hidden: !history, text: L.board.historyHeading });
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
  const pk = room.pk.length > 0;
  switch (room.phase) {
    case "lobby":
      // Before anyone owns the room nobody can start it: the board says how to get in.
      return room.seats.some((s) => s.owner) ? L.waitingForStart : L.board.joinFirst;
    case "describing":
      if (!room.turn) return L.phase.describing;
      return pk ? L.board.pkTurn(nameOf(seat, room.turn)) : L.turnOf(nameOf(seat, room.turn));
    case "voting": {
      if (!pk) return L.votingOpened(false);
      const candidates = seat.voting ? seat.voting.candidates : room.pk;
      return L.board.pkVote(L.board.or(...candidates.map((id) => nameOf(seat, id))));
    }
    case "guessing":
      return L.guessOf(nameOf(seat, seat.guessing ? seat.guessing.player : undefined));
    default:
      return "";
  }
}

/** Who is still to vote, by name, in seat order. */
function stillToVote(seat, L) {
  const room = seat.room;
  const voters = seat.voting ? seat.voting.voters : votersOf(room);
  const waiting = room.seats.filter((s) => voters.includes(s.id) && !s.voted);
  return waiting.length > 0 ? L.board.stillToVote(L.list(waiting.map((s) => s.name))) : L.board.allVoted;
}

/**
 * Long typed clues, or long words in the reveal, may not fit a column of the TV view at the usual size: a smaller
 * size first (never under 2.5 % of the height), then one line each.
 */
export function fitCards() {
  for (const card of [$("clues-card"), $("now-card"), $("seats-card"), $("vote-card"), $("evening-card")]) {
    card.classList.remove("tight", "tighter");
    const overflows = () => card.scrollHeight > card.clientHeight + 1;
    if (overflows()) card.classList.add("tight");
    if (overflows()) card.classList.add("tighter");
  }
}
