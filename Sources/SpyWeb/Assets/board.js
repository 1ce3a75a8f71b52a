// The board (/board?room=KFRW): a word-free view of one room for a TV or a projector. It joins as a watcher
// (`hello` with `watch: true`), takes no seat and is sent only public messages, so it has no word to show
// before game over: what it draws is the room snapshot, the turn and vote news, the results and the reveal.
"use strict";

const $ = (id) => document.getElementById(id);

let lang = initialLanguage();
let L = applyLanguage(lang);

const params = new URLSearchParams(location.search);
let wantedRoom = (params.get("room") || "").trim().toUpperCase();
// A host with a password asks it of watchers too; kept for this tab only, so reconnecting needs no retyping.
const PASSWORD_KEY = "whoisspy.boardPassword";

let boardPassword = (() => {
  try {
    return sessionStorage.getItem(PASSWORD_KEY) || "";
  } catch (_) {
    return "";
  }
})();

const board = {
  room: null,
  voting: null,
  result: null,
  gameOver: null,
  guessing: null,
  timerEndsAt: null,
  linkStatus: "idle",
  everConnected: false,
  attempt: 0,
  problem: "",
  needRoom: false,
  needPassword: false,
  qrShown: false,
};

const link = new HostLink({
  hello: () => {
    const hello = { type: "hello", protocol: 1, name: "", watch: true };
    if (/^[A-Z]{4}$/.test(wantedRoom)) hello.room = wantedRoom;
    if (boardPassword) hello.password = boardPassword;
    return hello;
  },
  onMessage: (message) => {
    handle(message);
    render();
  },
  onStatus: (status, attempt) => {
    if (status === "connected") board.everConnected = true;
    board.linkStatus = status;
    board.attempt = attempt;
    render();
  },
});

function handle(message) {
  switch (message.type) {
    case "welcome":
      board.problem = "";
      break;
    case "room":
      rememberNames(message);
      if (board.room && board.room.game !== message.game) {
        // A new game: the last vote and the reveal belong to the one before.
        board.result = null;
        board.gameOver = null;
      }
      board.room = message;
      if (message.phase !== "voting") board.voting = null;
      if (message.phase !== "guessing") board.guessing = null;
      if (message.phase === "lobby") {
        board.gameOver = null;
        board.result = null;
      }
      setTimer(message);
      break;
    case "turn":
    case "guessing":
      if (message.type === "guessing") board.guessing = message;
      setTimer(message);
      break;
    case "voting":
      board.voting = message;
      board.result = null;
      setTimer(message);
      break;
    case "vote_progress":
      if (board.room) {
        for (const seat of board.room.seats) seat.voted = message.voted.includes(seat.id);
      }
      break;
    case "vote_result":
      board.voting = null;
      board.result = message;
      board.timerEndsAt = null;
      break;
    case "game_over":
      board.gameOver = message;
      board.timerEndsAt = null;
      break;
    case "error":
      board.problem = (typeof L.problem[message.code] === "string" && L.problem[message.code]) || message.message;
      // The door is closed until the watcher says which room, or the password: the form asks.
      if (message.code === "room_required" || message.code === "room_not_found") board.needRoom = true;
      if (message.code === "wrong_password") board.needPassword = true;
      break;
    case "bye":
      board.problem = L.bye[message.reason] || L.bye.other(message.reason);
      break;
    default:
      break;
  }
}

/** A running turn, vote or guess timer from a message that may carry one ("absent": the table waits for a player
 * who is away). */
function setTimer(message) {
  board.timerEndsAt = typeof message.timerMs === "number" ? performance.now() + message.timerMs : null;
  board.timerKind = message.timerKind || "";
}

/** The address players open: this page's own host, with the room when the board names one. */
function joinURL() {
  const code = board.room ? board.room.room : wantedRoom;
  const base = `${location.protocol}//${location.host}/`;
  return /^[A-Z]{4}$/.test(wantedRoom) && code ? `${base}?room=${code}` : base;
}

/** Shows the host's QR code of the join address when the host serves one (/qr.svg); the address alone otherwise. */
function loadQR() {
  const image = new Image();
  image.className = "qr";
  image.alt = "QR";
  image.addEventListener("load", () => {
    board.qrShown = true;
    $("qr-slot").replaceChildren(image);
    render();
  });
  // The same address joinURL() prints: this page's host, with the room when the board was opened for one.
  image.src = /^[A-Z]{4}$/.test(wantedRoom) ? `/qr.svg?room=${wantedRoom}` : "/qr.svg";
}

function render() {
  const room = board.room;
  $("where").textContent = room ? whereLine(room, L) : "";
  const status = board.linkStatus === "idle" ? "" : board.linkStatus;
  $("link").textContent =
    status === "reconnecting" ? L.link.reconnecting(board.attempt) : status ? L.link[status] : "";
  $("link").className = `link link-${status || "idle"}`;
  $("problem").hidden = !board.problem;
  $("problem").textContent = board.problem;
  // A lost host is said across the room, not in the header's small print.
  const lost =
    board.everConnected && (board.linkStatus === "reconnecting" || (board.linkStatus === "closed" && !board.problem));
  $("offline").hidden = !lost;
  $("offline").textContent = board.linkStatus === "closed" ? L.connectionClosed : L.lostHost;
  document.body.classList.toggle("board-game", Boolean(room) && room.phase !== "lobby");
  document.body.classList.toggle("board-lobby", !room || room.phase === "lobby");
  const asking = (board.needRoom || board.needPassword) && board.linkStatus === "closed";
  $("board-join").hidden = !asking;
  $("board-room-field").hidden = !board.needRoom;
  $("board-password-field").hidden = !board.needPassword;
  $("room-code").textContent = room ? room.room : wantedRoom;
  $("join-url").textContent = joinURL();
  $("how-to-join").textContent = board.qrShown ? L.scanOrOpen : L.openInBrowser;
  document.title = room ? `${L.boardTitle} · ${room.room}` : L.boardTitle;
  if (!room) return;
  $("now").textContent = nowLine(room);
  renderTimer();
  const result = board.result;
  // At game over the reveal takes the place of the last vote.
  $("result").hidden = !result || room.phase === "voting" || room.phase === "lobby" || room.phase === "gameOver";
  if (result) {
    $("result-lines").replaceChildren(...resultLines(result, room, L).map((line) => el("li", { text: line })));
  }
  const over = room.phase === "gameOver" ? board.gameOver : null;
  $("game-over").hidden = !over;
  if (over) {
    $("winner").textContent = L.winner[over.winner];
    $("civilian-word").textContent = over.civilianWord;
    $("spy-word").textContent = over.spyWord;
    const blank = over.reveal.find((entry) => entry.role === "blank");
    $("blank-guess").textContent =
      over.blankGuess === undefined ? "" : L.blankGuess(nameOf(room, blank && blank.player), over.blankGuess);
    $("reveal").replaceChildren(...revealItems(over, room, null, L));
  }
  $("seats").replaceChildren(...seatItems(room, null, L));
  // The latest round in full, the four before it one line each: the clues that matter now always fit.
  const latest = room.clues.length > 0 ? room.clues[room.clues.length - 1].round : 0;
  const recent = { ...room, clues: room.clues.filter((clue) => clue.round > latest - 5) };
  $("clues").replaceChildren(...clueItems(recent, L, latest));
  $("clues-card").hidden = room.phase === "lobby";
  fitCards();
}

/**
 * Long typed clues, or long words in the reveal, may not fit a column of the TV view at the usual size: a smaller
 * size first (never under 2.5 % of the height), then one line each.
 */
function fitCards() {
  for (const card of [$("clues-card"), $("now-card"), $("seats-card")]) {
    card.classList.remove("tight", "tighter");
    const overflows = () => card.scrollHeight > card.clientHeight + 1;
    if (overflows()) card.classList.add("tight");
    if (overflows()) card.classList.add("tighter");
  }
}

window.addEventListener("resize", () => {
  if (board.room) fitCards();
});

/** One line on what the table is doing. */
function nowLine(room) {
  switch (room.phase) {
    case "lobby":
      return L.waitingForStart;
    case "describing":
      return room.turn ? L.turnOf(nameOf(room, room.turn)) : L.phase.describing;
    case "voting": {
      const voters = board.voting ? board.voting.voters : votersOf(room);
      const waiting = room.seats.filter((seat) => voters.includes(seat.id) && !seat.voted);
      return `${L.votingOpened(room.pk.length > 0)} · ${L.waitVote}: ${L.list(waiting.map((s) => s.name))}`;
    }
    case "guessing":
      return L.guessOf(nameOf(room, board.guessing ? board.guessing.player : undefined));
    case "gameOver":
      // The header says so; the winner and the reveal below need the room.
      return "";
    default:
      return "";
  }
}

function renderTimer() {
  const timer = $("timer");
  const running = board.timerEndsAt !== null && board.room && board.room.phase !== "gameOver";
  timer.hidden = !running;
  if (running) {
    const left = secondsLeft(board.timerEndsAt);
    timer.textContent = board.timerKind === "absent" ? L.absentTimer(left) : L.seconds(left);
  }
}

function fillLanguage() {
  fillStaticText(L);
  fillLanguageMenu($("lang-menu"), lang, L);
}

$("lang-menu").addEventListener("change", (event) => {
  lang = event.target.value;
  L = pickLanguage(lang);
  fillLanguage();
  render();
});

$("board-join").addEventListener("submit", (event) => {
  event.preventDefault();
  const room = $("board-room").value.trim().toUpperCase();
  if (board.needRoom && room) {
    wantedRoom = room;
    // The address now names the room, so a reload of the TV's page comes straight back.
    const query = new URLSearchParams(location.search);
    query.set("room", room);
    history.replaceState(null, "", `/board?${query}`);
  }
  if (board.needPassword) {
    boardPassword = $("board-password").value;
    try {
      sessionStorage.setItem(PASSWORD_KEY, boardPassword);
    } catch (_) {
      // Without storage a reload asks again.
    }
  }
  board.problem = "";
  link.start();
});

setInterval(() => {
  if (board.timerEndsAt !== null) renderTimer();
}, 250);

fillLanguage();
loadQR();
render();
link.start();
