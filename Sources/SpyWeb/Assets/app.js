// The player page: joins a room over /ws, shows this player's word (once, then only while 忘詞 is held) and
// whatever the game asks of them. Everything comes from the host's messages (docs/PROTOCOL.md); the page keeps
// only its device's seats (resume token, room, id, name), so any tab of the browser takes back the same seat.
"use strict";

const LAST_NAME_KEY = "whoisspy.lastName";
// Where pages before the device's list kept a tab's token.
const TAB_TOKEN_KEY = "whoisspy.token";

const $ = (id) => document.getElementById(id);

/**
 * The seats this device holds, in localStorage: a new tab, a rescanned QR code or a reopened browser finds them
 * and resumes without a word. A list of `{ token, room, id, name, opened, seen }` (`opened`: the player opened the
 * room with 開新房間; `seen`: the game whose word was already shown once, so a resume does not flash it again).
 * A word is never stored.
 */
const device = {
  key: "whoisspy.seats",
  load() {
    try {
      const list = JSON.parse(localStorage.getItem(this.key) || "[]");
      return Array.isArray(list) ? list.filter((seat) => seat && typeof seat.token === "string" && seat.token) : [];
    } catch (_) {
      return [];
    }
  },
  save(list) {
    try {
      if (list.length > 0) localStorage.setItem(this.key, JSON.stringify(list));
      else localStorage.removeItem(this.key);
    } catch (_) {
      // Without storage a new tab joins afresh; this tab still plays.
    }
  },
  get(token) {
    return this.load().find((seat) => seat.token === token);
  },
  /** Sets `fields` on the seat of `token`, adding the seat if the device did not hold it. */
  put(token, fields) {
    const list = this.load();
    const index = list.findIndex((seat) => seat.token === token);
    const seat = { ...(index >= 0 ? list[index] : { token }), ...fields };
    if (index >= 0) list[index] = seat;
    else list.push(seat);
    this.save(list);
  },
  drop(token) {
    this.save(this.load().filter((seat) => seat.token !== token));
  },
};

let lang = initialLanguage();
let L = applyLanguage(lang);

const state = {
  token: null, // this page's seat on the device
  replaced: false, // the seat went on in another tab or device
  watching: null, // a game was running at the join: the room as a watcher sees it, until the page can join
  claim: "", // the away seat this page asks back (hello.claim)
  claimPending: "", // the host is asking the room for that seat
  claimAsked: null, // this player is asked to let someone take back a seat: { player, name }
  me: null,
  joined: false,
  room: null,
  dealt: null, // { game, word, blank }: only ever from a `deal` addressed to this player
  wordShown: false, // just dealt: shown until the player hides it
  holding: false, // 忘詞 held down
  recallUntil: 0, // a screen reader's click on 忘詞 shows the word for a moment
  voting: null,
  ballot: null,
  guessing: null,
  result: null,
  gameOver: null,
  events: [],
  notice: "",
  linkStatus: "idle",
  attempt: 0,
  timerEndsAt: null,
  lastTurnKey: "",
  lastVoteKey: "",
  hello: null, // what the next hello asks for, when not resuming
};

const link = new HostLink({
  hello: () => {
    if (state.token) {
      const seat = device.get(state.token);
      return { type: "hello", protocol: 1, name: (seat && seat.name) || "", token: state.token };
    }
    if (state.claim) {
      const { create: _, ...hello } = state.hello;
      return { ...hello, claim: state.claim };
    }
    return state.hello;
  },
  onMessage: (message) => {
    handle(message);
    render();
  },
  onStatus: (status, attempt) => {
    const before = state.linkStatus;
    state.linkStatus = status;
    state.attempt = attempt;
    if (status === "reconnecting" && before === "connected") record((S) => S.lostHost);
    // Not seated yet: a refusal, or a host that does not answer, gives the form back.
    if ((status === "closed" || status === "reconnecting") && !state.joined) showJoinError(state.joinError);
    render();
  },
});

// MARK: Messages from the host

function handle(message) {
  switch (message.type) {
    case "welcome":
      if (state.joined) record((S) => S.reconnected);
      stopWatching();
      state.claim = "";
      state.claimPending = "";
      state.me = message.you;
      state.joined = true;
      // The host's bank, for the owner to pick categories from (hosts that do not send it leave the text field).
      state.bankCategories = Array.isArray(message.categories) ? message.categories : [];
      state.joinError = "";
      state.token = message.token;
      state.replaced = false;
      device.put(message.token, { room: message.room, id: message.you });
      if (message.resumed !== true) device.put(message.token, { opened: Boolean(state.hello && state.hello.create) });
      // Back after a drop: say again whose turn it is or that a vote is open.
      state.lastTurnKey = "";
      state.lastVoteKey = "";
      break;
    case "room":
      applyRoom(message);
      break;
    case "deal": {
      // The same deal comes again after every reconnection; only a new game resets the table.
      const isNew = !state.dealt || state.dealt.game !== message.game;
      const stored = device.get(state.token);
      const seen = Boolean(stored && stored.seen === message.game);
      state.dealt = { game: message.game, word: message.word, blank: message.blank === true };
      if (isNew) {
        state.gameOver = null;
        state.guessing = null;
        state.result = null;
        record((S) => S.gameStarted(message.game));
      }
      if (isNew && !seen) {
        state.wordShown = true;
        state.scrollToWord = true;
        state.focusNext = "hide-word";
      }
      break;
    }
    case "turn":
      setTimer(message.timerMs, message.timerKind);
      announceTurn(message.player, message.round, message.pk);
      break;
    case "clue": {
      const name = nameOf(state.room, message.player);
      // The clue went through: the box is free for the next turn (a refused clue keeps its text).
      if (message.player === state.me) {
        $("clue-input").value = "";
        // The clue form goes away under the focus: the word's button is what stays in reach.
        state.focusNext = "forgot";
      }
      record((S) => S.clueEvent(name, message.text));
      break;
    }
    case "voting": {
      const key = voteKey(message.round, message.pk);
      state.voting = message;
      if (key !== state.lastVoteKey) state.ballot = null;
      // On a resume the host says whom this player had voted for.
      if (typeof message.ballot === "string") state.ballot = message.ballot;
      state.result = null;
      setTimer(message.timerMs);
      announceVote();
      break;
    }
    case "vote_progress":
      if (state.room) {
        for (const seat of state.room.seats) seat.voted = message.voted.includes(seat.id);
      }
      break;
    case "vote_result": {
      state.voting = null;
      state.ballot = null;
      state.timerEndsAt = null;
      state.result = message;
      const room = state.room;
      const count = resultLines(message, room, L).length;
      for (let i = 0; i < count; i++) record((S) => resultLines(message, room, S)[i]);
      announce(resultLines(message, room, L).slice(-1)[0]);
      break;
    }
    case "guessing": {
      state.guessing = message;
      setTimer(message.timerMs, message.timerKind);
      const name = nameOf(state.room, message.player);
      const mine = message.player === state.me;
      record((S) => (mine ? S.yourGuess : S.guessOf(name)));
      announce(mine ? L.yourGuess : L.guessOf(name));
      break;
    }
    case "game_over": {
      state.gameOver = message;
      state.voting = null;
      state.guessing = null;
      state.timerEndsAt = null;
      const room = state.room;
      if (message.blankGuess !== undefined) {
        const blank = message.reveal.find((entry) => entry.role === "blank");
        const name = nameOf(room, blank && blank.player);
        record((S) => S.blankGuess(name, message.blankGuess));
      }
      record((S) => `${S.winner[message.winner]} ${S.words(message.civilianWord, message.spyWord)}`);
      for (const entry of message.reveal) {
        const name = nameOf(room, entry.player);
        record((S) => S.reveal(name, S.role[entry.role], entry.word));
      }
      announce(`${L.winner[message.winner]} ${L.words(message.civilianWord, message.spyWord)}`);
      break;
    }
    case "claim_pending":
      state.claimPending = message.player;
      break;
    case "claim":
      askClaim(message);
      break;
    case "claim_done":
      if (state.claimAsked && state.claimAsked.player === message.player) closeClaim();
      break;
    case "owner": {
      const name = nameOf(state.room, message.player);
      const mine = message.player === state.me;
      record((S) => (mine ? S.youAreOwner : S.newOwner(name)));
      announce(mine ? L.youAreOwner : L.newOwner(name));
      break;
    }
    case "error":
      handleError(message);
      break;
    case "bye":
      handleBye(message.reason);
      break;
    default:
      // pong, and anything a newer host adds: nothing to show.
      break;
  }
}

function applyRoom(view) {
  const before = state.room;
  if (before) {
    for (const seat of view.seats) {
      if (!before.seats.some((old) => old.id === seat.id)) record((S) => S.joined(seat.name));
    }
    for (const seat of before.seats) {
      const now = view.seats.find((other) => other.id === seat.id);
      if (!now) record((S) => S.left(seat.name));
      else if (seat.connected && !now.connected) record((S) => S.wentAway(seat.name));
      else if (!seat.connected && now.connected && seat.id !== state.me) record((S) => S.back(seat.name));
    }
    if (
      JSON.stringify(before.settings) !== JSON.stringify(view.settings) &&
      (view.phase === "lobby" || view.phase === "gameOver")
    ) {
      const settings = view.settings;
      record((S) => S.settingsChanged(S.settingsLine(settings, S)));
    }
  } else {
    const mine = view.seats.find((seat) => seat.id === state.me);
    if (mine) record((S) => S.joined(mine.name));
  }
  state.room = view;
  rememberNames(view);
  const mine = seatOf(view, state.me);
  const stored = state.token ? device.get(state.token) : null;
  if (mine && stored && stored.name !== mine.name) device.put(state.token, { name: mine.name });
  if (view.phase !== "voting") {
    state.voting = null;
    state.ballot = null;
  } else if (!state.voting) {
    // Joined or resumed mid-vote: rebuild the vote from the public state.
    const pk = view.pk.length > 0;
    state.voting = {
      round: view.round,
      pk,
      candidates: pk ? view.pk : view.seats.filter((s) => s.alive).map((s) => s.id),
      voters: votersOf(view),
    };
    announceVote();
  }
  if (view.phase === "describing" && view.turn) announceTurn(view.turn, view.round, view.pk.length > 0);
  if (view.phase !== "guessing") state.guessing = null;
  if (view.phase === "lobby") state.gameOver = null;
  if (view.phase === "lobby") state.result = null;
  setTimer(view.timerMs, view.timerKind);
}

function handleError(error) {
  const text = problemText(error);
  if (!state.joined) {
    // A refused hello: the host closes the connection; the form says what to change.
    state.joinError = text;
    state.claimPending = "";
    if (error.code === "bad_token") forgetSeat();
    if (error.code === "replaced") {
      state.replaced = true;
      return;
    }
    if (state.claim) {
      // A claim ended without the seat: the room is still there to watch, or to join.
      state.claim = "";
      state.claimPending = "";
      if (state.watching) {
        state.watchProblem = text;
        // The game may have ended while the claim waited: join as first asked.
        if (state.watching.phase === "lobby" || state.watching.phase === "gameOver") {
          stopWatching();
          setTimeout(() => link.start(), 0);
        }
        return;
      }
    }
    if (error.code === "game_in_progress") {
      startWatching();
      return;
    }
    if (error.code === "name_taken" && state.autoName) {
      // The page's own default name was taken: the next number, without asking.
      state.autoName += 1;
      state.hello = { ...state.hello, name: L.defaultName(state.autoName) };
      link.start();
      return;
    }
    if (error.code === "name_taken") {
      const name = $("join-name").value.trim();
      const suggestion = /\d+$/.test(name) ? name.replace(/\d+$/, (d) => String(Number(d) + 1)) : `${name}2`;
      $("join-name").value = suggestion;
      state.joinError = L.nameTakenTry(suggestion);
    }
    if (error.code === "room_required" || error.code === "room_not_found") state.needRoom = true;
    if (error.code === "wrong_password") state.needPassword = true;
    return;
  }
  if (error.code === "replaced") {
    // Another tab (or device) took this seat with its token: this one steps aside until asked back.
    state.replaced = true;
    return;
  }
  state.notice = text;
  record((S) => problemText(error, S));
  if (error.code === "kicked") {
    leaveRoom(text);
  } else if (error.code === "clue_has_word" || error.code === "bad_clue") {
    $("clue-input").focus();
  } else if (error.code === "self_vote" || error.code === "bad_target") {
    state.ballot = null;
  } else if (["bad_settings", "too_many_spies", "bad_message", "not_owner"].includes(error.code)) {
    // A refused setting: the form shows again what is in force.
    state.resetSettings = true;
  }
}

function handleBye(reason) {
  const text = L.bye[reason] || L.bye.other(reason);
  if (reason === "left" || reason === "room_closed") {
    leaveRoom(reason === "left" ? "" : text);
  } else {
    state.notice = text;
    record((S) => S.bye[reason] || S.bye.other(reason));
  }
}

/** Back to the join form, the seat given up (left, kicked, room closed). */
function leaveRoom(message) {
  link.stop();
  forgetSeat();
  Object.assign(state, {
    me: null,
    joined: false,
    room: null,
    dealt: null,
    voting: null,
    ballot: null,
    guessing: null,
    result: null,
    gameOver: null,
    events: [],
    notice: "",
    timerEndsAt: null,
    wordShown: false,
  });
  state.joinError = message;
  // Other players still on this page: the next one takes the page's first place.
  if (promotePageSeat()) return;
  showJoinError(message);
}

// MARK: Joining while a game runs, and taking back an away seat

/**
 * A game is running, so the host seats nobody new: the page watches the room (what a board sees), joins by itself
 * when the game ends, and offers "That's me" next to the seats that are away.
 */
const watcher = new HostLink({
  hello: () => {
    const hello = { type: "hello", protocol: 1, name: "", watch: true };
    if (state.hello && state.hello.room) hello.room = state.hello.room;
    if (state.hello && state.hello.password) hello.password = state.hello.password;
    return hello;
  },
  onMessage: (message) => {
    if (message.type === "room") {
      rememberNames(message);
      state.watching = message;
      if (message.phase === "lobby" || message.phase === "gameOver") {
        // The game is over: join now, as the player asked.
        if (!state.claim) {
          stopWatching();
          link.start();
        }
      }
    }
    render();
  },
  onStatus: () => render(),
});

function startWatching() {
  state.watching = { seats: [], phase: "", room: "" };
  state.watchProblem = "";
  watcher.start();
}

function stopWatching() {
  if (!state.watching) return;
  state.watching = null;
  watcher.stop();
}

/** Asks the room for an away seat: the owner (or the longest-seated player) is asked to allow it. */
function claimSeat(seat) {
  state.claim = seat.id;
  state.claimPending = "";
  state.watchProblem = "";
  state.joinError = "";
  link.start();
  render();
}

function thatsMeButton(seat) {
  if (seat.bot || seat.connected) return null;
  return el("button", {
    type: "button",
    class: "thats-me small",
    text: L.thatsMe,
    "aria-label": L.thatsMeName(seat.name),
    dataset: { claim: seat.id },
    onclick: () => claimSeat(seat),
  });
}

/** Someone asks for an away seat back: one tap allows it (or refuses). */
function askClaim(message) {
  state.claimAsked = { player: message.player, name: message.name };
  const seat = seatOf(state.room, message.player);
  $("claim-question").textContent = L.claimQuestion(message.name, seat ? seat.seat : message.player);
  const dialog = $("claim-dialog");
  if (!dialog.open) dialog.showModal();
  $("claim-allow").focus();
}

function closeClaim() {
  state.claimAsked = null;
  if ($("claim-dialog").open) $("claim-dialog").close();
}

function answerClaim(allow) {
  const asked = state.claimAsked;
  closeClaim();
  // The question may have come to another seat of this page (seats.js): that seat answers.
  if (asked) (asked.seat || { send }).send({ type: "claim_answer", player: asked.player, allow });
}

/** The seat is given up or gone: this device no longer holds it. */
function forgetSeat() {
  if (state.token) device.drop(state.token);
  state.token = null;
}

/** "Play here": the seat comes back to this tab from the one that took it. */
function playHere() {
  state.replaced = false;
  state.notice = "";
  link.start();
  render();
}

/** A refusal in the page's language; `too_few_players` with the numbers the host gave. */
function problemText(error, S = L) {
  if (error.code === "too_few_players" && Number.isInteger(error.need) && Number.isInteger(error.have)) {
    return S.problem.too_few_players_count(error.need, error.have);
  }
  return S.problem[error.code] || error.message || error.code;
}

// MARK: Announcements and the event log

function record(line) {
  state.events.push(line);
  if (state.events.length > 200) state.events.splice(0, state.events.length - 200);
}

let announceTimer = 0;
/** Says `text` through the live region (turns, votes, results), once. */
function announce(text) {
  const region = $("announcer");
  region.textContent = "";
  clearTimeout(announceTimer);
  // A fresh text node after a pause makes screen readers read it even when it repeats.
  announceTimer = setTimeout(() => {
    region.textContent = text;
  }, 100);
}

function currentGame() {
  return Math.max(state.room ? state.room.game : 0, state.dealt ? state.dealt.game : 0);
}

function voteKey(round, pk) {
  return `${currentGame()}/${round}/${pk}`;
}

function announceTurn(player, round, pk) {
  const key = `${currentGame()}/${round}/${player}/${pk}`;
  if (key === state.lastTurnKey) return;
  state.lastTurnKey = key;
  const name = nameOf(state.room, player);
  const mine = player === state.me;
  record((S) => S.turnEvent(name, mine, pk));
  if (mine) {
    announce(state.room && state.room.settings.clueMode === "typed" ? L.yourTurnTyped : L.yourTurnSpoken);
  } else {
    announce(L.turnOf(name));
  }
}

function announceVote() {
  const vote = state.voting;
  if (!vote) return;
  const key = voteKey(vote.round, vote.pk);
  if (key === state.lastVoteKey) return;
  state.lastVoteKey = key;
  record((S) => S.votingOpened(vote.pk));
  announce(`${L.votingOpened(vote.pk)}${canVote() ? ` · ${L.pickVote}` : ""}`);
}

/** Starts the countdown of a turn, vote or guess; `kind` "absent" is the table waiting for a player who is away. */
function setTimer(ms, kind) {
  state.timerEndsAt = typeof ms === "number" ? performance.now() + ms : null;
  state.timerKind = kind || "";
}

// MARK: Queries

function mySeat() {
  return seatOf(state.room, state.me);
}

function isOwner() {
  const seat = mySeat();
  return Boolean(seat && seat.owner);
}

function isMyTurn() {
  return Boolean(state.room && state.room.phase === "describing" && state.room.turn === state.me);
}

function canVote() {
  return Boolean(state.voting && state.voting.voters.includes(state.me));
}

function inGame() {
  return Boolean(state.room && ["describing", "voting", "guessing"].includes(state.room.phase));
}

// MARK: Moves

function send(message) {
  state.notice = "";
  if (!link.send(message)) state.notice = L.link.reconnecting(state.attempt || 1);
  render();
}

function join(create) {
  const typed = $("join-name").value.trim();
  const room = $("join-room").value.trim().toUpperCase();
  const password = $("join-password").value;
  // An empty name takes a default one; the host's are Chinese (玩家1), so an English page picks its own.
  state.autoName = !typed && lang === "en" ? 1 : 0;
  const name = state.autoName ? L.defaultName(state.autoName) : typed;
  const hello = { type: "hello", protocol: 1, name };
  if (create) hello.create = true;
  else if (room) hello.room = room;
  if (password) hello.password = password;
  state.hello = hello;
  state.joinError = "";
  try {
    localStorage.setItem(LAST_NAME_KEY, typed);
  } catch (_) {
    // Only a convenience for the next visit.
  }
  $("join-error").textContent = "";
  $("join-button").disabled = true;
  $("create-button").disabled = true;
  link.start();
}

function showJoinError(text) {
  $("join-button").disabled = false;
  $("create-button").disabled = false;
  $("join-error").textContent = text || "";
  $("join-room-field").hidden = !state.needRoom && !$("join-room").value;
  $("join-password-field").hidden = !state.needPassword;
  if (state.needPassword) $("join-password").focus();
  else if (state.needRoom) $("join-room").focus();
  else $("join-name").focus();
}

/**
 * The confirmation dialog: resolves true for the first answer, false for the second or Escape. `kind` says what it
 * asks ("vote", "kick", "leave"): a redraw closes a vote's question once voting is over, and only a vote's.
 */
function ask(kind, question, yes, no) {
  const dialog = $("confirm");
  dialog.dataset.kind = kind;
  $("confirm-question").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
    $("confirm-no").focus();
  });
}

async function confirmVote(seat) {
  const yes = await ask("vote", L.confirmVote(seat.name), L.confirmVoteYes, L.confirmVoteNo);
  if (yes && canVote()) {
    state.ballot = seat.id;
    state.focusNext = `vote:${seat.id}`;
    send({ type: "vote", target: seat.id });
  }
}

async function confirmKick(seat) {
  if (await ask("kick", L.confirmKick(seat.name), L.kickYes, L.cancel)) send({ type: "kick", player: seat.id });
}

async function confirmLeave() {
  if (await ask("leave", inGame() ? L.confirmLeave : L.confirmLeaveNoGame, L.leaveYes, L.stay)) {
    if (!link.send({ type: "leave" })) leaveRoom("");
  }
}

function settingValue(input) {
  const key = input.dataset.setting;
  if (input.type === "checkbox") return input.checked;
  if (key === "categories") {
    return input.value
      .split(/[,，、]/)
      .map((part) => part.trim())
      .filter((part) => part.length > 0);
  }
  if (input.type === "number" || key === "spies") {
    const value = Number(input.value);
    return Number.isInteger(value) ? value : undefined;
  }
  return input.value;
}

// MARK: 忘詞: the word while held

function hold(on) {
  if (state.holding === on) return;
  state.holding = on;
  renderWord();
}

function wireForgotButton() {
  const button = $("forgot");
  let pressed = false;
  button.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pressed = true;
    try {
      button.setPointerCapture(event.pointerId);
    } catch (_) {
      // Capture is a nicety: without it leaving the button still ends the hold.
    }
    hold(true);
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture", "pointerleave"]) {
    button.addEventListener(type, () => hold(false));
  }
  button.addEventListener("keydown", (event) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      pressed = true;
      hold(true);
    }
  });
  button.addEventListener("keyup", (event) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      hold(false);
    }
  });
  button.addEventListener("blur", () => hold(false));
  button.addEventListener("contextmenu", (event) => event.preventDefault());
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (pressed) {
      pressed = false;
      return;
    }
    // A click with no press before it comes from assistive technology, which cannot hold: show the word for a
    // few seconds instead, like the terminal client's `f`.
    state.recallUntil = performance.now() + 3000;
    renderWord();
    setTimeout(renderWord, 3100);
  });
}

// MARK: Rendering

function render() {
  document.title = state.room ? `${L.title} · ${state.room.room}` : `${L.title} · Who Is the Spy`;
  renderHeader();
  const inRoom = state.joined && state.room !== null;
  const resuming = !state.joined && state.token && state.linkStatus !== "closed";
  $("replaced").hidden = !state.replaced;
  renderWatching();
  const waiting = Boolean(state.watching) || Boolean(state.claimPending);
  $("join").hidden = state.joined || Boolean(resuming) || state.replaced || waiting;
  $("game").hidden = !inRoom || state.replaced;
  renderSharedPage();
  if (state.replaced) {
    // The seat plays elsewhere now: its word leaves this page.
    $("word").textContent = "";
    state.wordShown = false;
    return;
  }
  if (!inRoom) return;
  renderWord();
  renderAction();
  renderSettings();
  // On a shared page no seat is "you": the seats of this page are marked as here.
  const you = sharedPage() ? null : state.me;
  const extras = (seat) => [hereBadge(seat), onThisPage(seat.id) ? null : kickButton(seat)];
  redrawList($("seats"), seatItems(state.room, you, L, extras));
  $("clues").replaceChildren(...clueItems(state.room, L));
  const events = state.events.slice(-60).reverse();
  $("events").replaceChildren(...events.map((line) => el("li", { text: line(L) })));
  if (state.scrollToWord && !$("word-card").hidden) {
    // A new game: the word is the first thing to see, wherever the page was scrolled to. The deal may come before
    // the snapshot that shows the card, so this waits for the card.
    state.scrollToWord = false;
    scrollBelowHeader($("word-card"));
  }
  moveFocus();
}

/** Before joining: the room being watched until its game ends, or the claim waiting for an answer. */
function renderWatching() {
  const watching = !state.joined && state.watching;
  const pending = !state.joined && state.claimPending;
  show("watch", Boolean(watching) && !pending);
  show("claim-wait", Boolean(pending));
  if (pending) {
    const seat = seatOf(state.watching, state.claimPending);
    $("claim-wait-text").textContent = L.claimPending(seat ? seat.seat : "");
  }
  if (!watching) return;
  $("watch-where").textContent = state.watching.room ? whereLine(state.watching, L) : "";
  $("watch-problem").textContent = state.watchProblem || "";
  const claiming = Boolean(state.claim);
  redrawList(
    $("watch-seats"),
    seatItems(state.watching, null, L, claiming ? null : thatsMeButton),
  );
}

/** Scrolls so that `node` starts just below the sticky header. */
function scrollBelowHeader(node) {
  const header = document.querySelector(".bar").getBoundingClientRect().bottom;
  const top = node.getBoundingClientRect().top + window.scrollY - header - 8;
  window.scrollTo({ top: Math.max(0, top), behavior: "instant" });
}

/**
 * After the deal, a clue and a vote the control a player used goes away or is redrawn: the focus goes to the next
 * one they need (hide the word, 忘詞, their ballot) rather than falling to the page.
 */
function moveFocus() {
  const wanted = state.focusNext;
  if (!wanted) return;
  if ($("confirm").open) return;
  const target = wanted.startsWith("vote:")
    ? $("vote-list").querySelector(`[data-player="${CSS.escape(wanted.slice(5))}"]`)
    : $(wanted);
  if (!target || target.closest("[hidden]")) return;
  state.focusNext = "";
  target.focus({ preventScroll: true });
}

function renderHeader() {
  $("where").textContent = state.room ? whereLine(state.room, L) : "";
  const status = state.linkStatus === "idle" ? "" : state.linkStatus;
  const words = L.link;
  $("link").textContent =
    status === "reconnecting" ? words.reconnecting(state.attempt) : status ? words[status] : "";
  $("link").className = `link link-${status || "idle"}`;
  renderTimer();
}

function renderTimer() {
  const timer = $("timer");
  if (state.timerEndsAt === null || !state.room || !inGame()) {
    timer.hidden = true;
    return;
  }
  timer.hidden = false;
  const left = secondsLeft(state.timerEndsAt);
  timer.textContent = state.timerKind === "absent" ? L.absentTimer(left) : L.seconds(left);
  timer.setAttribute("aria-label", L.timeLeft(secondsLeft(state.timerEndsAt)));
}

function renderWord() {
  const card = $("word-card");
  const dealt = state.dealt;
  const room = state.room;
  // At game over every word is on the table: the reveal takes the card's place.
  // Several seats on the page: the words are shown on the pass screens (pass.js), one seat at a time.
  const showCard = Boolean(dealt && room && inGame() && room.game === dealt.game) && !sharedPage();
  if (!showCard) $("word").textContent = "";
  card.hidden = !showCard;
  if (!showCard) return;
  const visible = state.wordShown || state.holding || performance.now() < state.recallUntil;
  const word = $("word");
  word.textContent = visible ? (dealt.blank ? L.youAreBlank : L.yourWord(dealt.word)) : "";
  word.classList.toggle("shown", visible);
  fitWord(word);
  card.classList.toggle("holding", state.holding);
  $("hide-word").hidden = !state.wordShown;
  $("forgot").hidden = state.wordShown;
  $("forgot").setAttribute("aria-pressed", state.holding ? "true" : "false");
  $("forgot-hint").hidden = state.wordShown;
}

/* The word's place is two lines high: a long word (or a narrow phone) that would take a third line gets smaller
   type instead, so 忘詞 never moves under the thumb that holds it. */
function fitWord(word) {
  word.style.fontSize = "";
  if (!word.textContent) return;
  let size = parseFloat(getComputedStyle(word).fontSize);
  const smallest = size / 2;
  while (word.scrollHeight > word.clientHeight + 1 && size > smallest) {
    size -= 2;
    word.style.fontSize = `${size}px`;
  }
}

function show(id, on) {
  $(id).hidden = !on;
}

function renderAction() {
  const room = state.room;
  const me = mySeat();
  const owner = isOwner();
  // Several seats on the page: turns, ballots and guesses are taken on the pass screens (pass.js).
  const shared = sharedPage();
  let prompt = "";
  show("lobby-actions", false);
  show("turn-spoken", false);
  show("clue-form", false);
  show("vote-list", false);
  show("guess-form", false);
  show("game-over", false);
  switch (room.phase) {
    case "lobby":
      prompt = owner ? L.ownerCanStart : L.waitingForStart;
      if ((device.get(state.token) || {}).opened) prompt = `${L.roomYouOpened(room.room)} · ${prompt}`;
      show("lobby-actions", owner);
      $("start-button").textContent = L.start;
      break;
    case "describing":
      if (isMyTurn() && !shared) {
        const typed = room.settings.clueMode === "typed";
        prompt = typed ? L.yourTurnTyped : L.yourTurnSpoken;
        show("clue-form", typed);
        show("turn-spoken", !typed);
      } else {
        prompt = room.turn ? L.turnOf(nameOf(room, room.turn)) : "";
        if (me && me.sittingOut && !shared) prompt = `${L.notDealt} · ${prompt}`;
        else if (me && !me.alive && !shared) prompt = `${L.youAreOut} · ${prompt}`;
      }
      break;
    case "voting":
      if (shared) {
        prompt = L.waitVote;
      } else if (canVote()) {
        prompt = state.ballot ? L.ballot(nameOf(room, state.ballot)) : me && me.voted ? L.votedAlready : L.pickVote;
        show("vote-list", true);
        renderVoteList();
      } else {
        prompt = me && me.sittingOut ? L.notDealt : me && !me.alive ? L.youAreOut : L.waitVote;
      }
      break;
    case "guessing": {
      const guesser = state.guessing ? state.guessing.player : undefined;
      if (guesser === state.me && !shared) {
        prompt = L.yourGuess;
        show("guess-form", true);
      } else {
        prompt = L.guessOf(nameOf(room, guesser));
      }
      break;
    }
    case "gameOver":
      prompt = owner ? "" : L.waitingForStart;
      show("lobby-actions", owner);
      $("start-button").textContent = L.playAgain;
      renderGameOver();
      break;
  }
  $("prompt").textContent = prompt;
  $("notice").textContent = state.notice;
  const result = state.result;
  const showResult = Boolean(result) && room.phase !== "voting" && room.phase !== "lobby";
  show("result", showResult);
  if (showResult) {
    $("result-lines").replaceChildren(...resultLines(result, room, L).map((line) => el("li", { text: line })));
  }
  if ($("confirm").open && $("confirm").dataset.kind === "vote" && !canVote()) $("confirm").close();
}

/**
 * Puts `items` in `list` unless it already reads the same. The page redraws on every message from the host, and a
 * button rebuilt under a finger loses the tap (pressed on one element, released on another): a list whose content
 * did not change keeps its buttons.
 */
function redrawList(list, items) {
  if (list.innerHTML === items.map((item) => item.outerHTML).join("")) return;
  list.replaceChildren(...items);
}

function renderVoteList() {
  const room = state.room;
  const seats = room.seats.filter((seat) => state.voting.candidates.includes(seat.id) && seat.id !== state.me);
  const focused = document.activeElement && document.activeElement.dataset.player;
  const items = seats.map((seat) =>
    el(
      "li",
      null,
      el(
        "button",
        {
          type: "button",
          class: seat.id === state.ballot ? "vote chosen" : "vote",
          "aria-pressed": seat.id === state.ballot ? "true" : "false",
          "aria-label": L.voteFor(seat.seat, seat.name),
          dataset: { player: seat.id },
          onclick: () => confirmVote(seat),
        },
        el("span", { class: "seat-number", text: String(seat.seat) }),
        el("span", { class: "seat-name", text: seat.name }),
      ),
    ),
  );
  redrawList($("vote-list"), items);
  if (focused) {
    const again = $("vote-list").querySelector(`[data-player="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

function renderGameOver() {
  const over = state.gameOver;
  show("game-over", Boolean(over));
  if (!over) return;
  $("winner").textContent = L.winner[over.winner];
  $("civilian-word").textContent = over.civilianWord;
  $("spy-word").textContent = over.spyWord;
  $("blank-guess").textContent =
    over.blankGuess === undefined
      ? ""
      : L.blankGuess(nameOf(state.room, (over.reveal.find((e) => e.role === "blank") || {}).player), over.blankGuess);
  $("reveal").replaceChildren(...revealItems(over, state.room, state.me, L));
}

function renderSettings() {
  const room = state.room;
  const visible = room.phase === "lobby" || room.phase === "gameOver";
  show("settings", visible);
  if (!visible) return;
  const owner = isOwner();
  // Everyone reads the summary; only the owner gets the form.
  $("settings-fields").disabled = !owner;
  show("settings-form", owner);
  $("settings-line").textContent = L.settingsLine(room.settings, L);
  renderCategoryPicks(room.settings);
  const reset = state.resetSettings;
  state.resetSettings = false;
  for (const input of document.querySelectorAll("[data-setting]")) {
    if (input === document.activeElement && !reset) continue;
    const value = room.settings[input.dataset.setting];
    if (input.type === "checkbox") input.checked = Boolean(value);
    else if (Array.isArray(value)) input.value = value.join(", ");
    else if (input.tagName === "SELECT") chooseOption(input, String(value));
    else input.value = String(value);
  }
}

/**
 * Shows `value` in a settings menu. A value the menu does not list (a newer host's word language) gets an option
 * of its own, named by its code, rather than a blank menu; the option goes once the room's value is one listed.
 */
function chooseOption(menu, value) {
  for (const option of [...menu.querySelectorAll("option[data-unknown]")]) {
    if (option.value !== value) option.remove();
  }
  const listed = [...menu.options].find((option) => option.value === value);
  if (listed && listed.dataset.unknown !== undefined) listed.textContent = L.unknownValue(value);
  if (!listed) menu.append(el("option", { value, dataset: { unknown: "" }, text: L.unknownValue(value) }));
  menu.value = value;
}

/** The bank languages whose pairs a room's word language deals: "both" is zh-TW and English, "zh-Hans+en" both. */
function wordLanguages(language) {
  return language === "both" ? ["zh-TW", "en"] : String(language).split("+");
}

/** Names compare as the host compares them: without regard to case or full-width forms. */
function sameCategory(a, b) {
  return a.normalize("NFKC").toLowerCase() === b.normalize("NFKC").toLowerCase();
}

/** One checkbox per category of the host's bank in the room's word language, with the pairs it can deal. */
function renderCategoryPicks(settings) {
  const languages = wordLanguages(settings.language);
  const counts = new Map();
  for (const entry of state.bankCategories || []) {
    if (!languages.includes(entry.language) || typeof entry.name !== "string") continue;
    const playable = settings.allowParty ? entry.pairs : entry.pairs - entry.partyPairs;
    counts.set(entry.name, (counts.get(entry.name) || 0) + playable);
  }
  show("category-picks", counts.size > 0);
  if (counts.size === 0) return;
  const list = $("category-list");
  const focused = document.activeElement && document.activeElement.dataset.category;
  list.replaceChildren(
    ...[...counts].map(([name, pairs]) => {
      const box = el("input", {
        type: "checkbox",
        dataset: { category: name },
        checked: settings.categories.some((chosen) => sameCategory(chosen, name)),
      });
      return el("label", { class: "pick" }, box, L.pairsIn(name, pairs));
    }),
  );
  if (focused) {
    const again = list.querySelector(`[data-category="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

function kickButton(seat) {
  if (!isOwner() || seat.id === state.me) return null;
  return el("button", {
    type: "button",
    class: "kick small",
    text: L.kick,
    "aria-label": L.kickName(seat.name),
    onclick: () => confirmKick(seat),
  });
}

// MARK: Wiring

function wire() {
  $("lang-menu").addEventListener("change", (event) => {
    lang = event.target.value;
    L = pickLanguage(lang);
    fillLanguage();
    render();
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    join(false);
  });
  $("create-button").addEventListener("click", async () => {
    // A mis-tap here would seat a guest alone in a lobby that looks like the real one: it asks first.
    if (await ask("create", L.createQuestion, L.createYes, L.cancel)) join(true);
  });
  $("hide-word").addEventListener("click", () => {
    state.wordShown = false;
    if (state.dealt && state.token) device.put(state.token, { seen: state.dealt.game });
    renderWord();
    $("forgot").focus();
  });
  wireForgotButton();
  $("start-button").addEventListener("click", () => send({ type: "start" }));
  $("done-button").addEventListener("click", () => send({ type: "pass" }));
  $("pass-button").addEventListener("click", () => send({ type: "pass" }));
  $("clue-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("clue-input").value.trim();
    if (!text) return;
    send({ type: "clue", text });
  });
  $("guess-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const word = $("guess-input").value.trim();
    if (word) send({ type: "guess", word });
  });
  $("settings-form").addEventListener("submit", (event) => event.preventDefault());
  $("settings-form").addEventListener("change", (event) => {
    const input = event.target;
    if (input.dataset && input.dataset.category !== undefined && isOwner()) {
      const chosen = [...$("category-list").querySelectorAll("input:checked")].map((box) => box.dataset.category);
      send({ type: "settings", settings: { categories: chosen } });
      return;
    }
    if (!input.dataset || !input.dataset.setting || !isOwner()) return;
    const value = settingValue(input);
    if (value === undefined) {
      render();
      return;
    }
    send({ type: "settings", settings: { [input.dataset.setting]: value } });
  });
  $("leave-button").addEventListener("click", confirmLeave);
  $("play-here").addEventListener("click", playHere);
  $("claim-allow").addEventListener("click", () => answerClaim(true));
  $("claim-deny").addEventListener("click", () => answerClaim(false));
  $("claim-dialog").addEventListener("cancel", (event) => event.preventDefault());
  setInterval(() => {
    if (state.timerEndsAt !== null) renderTimer();
  }, 250);
}

function fillLanguage() {
  fillStaticText(L);
  fillLanguageMenu($("lang-menu"), lang, L);
}

/** A seat an older version of the page kept for this tab only joins the device's list. */
function adoptTabSeat() {
  try {
    const token = sessionStorage.getItem(TAB_TOKEN_KEY);
    if (token && !device.get(token)) device.put(token, { name: sessionStorage.getItem("whoisspy.name") || "" });
    sessionStorage.removeItem(TAB_TOKEN_KEY);
  } catch (_) {
    // No storage: nothing was kept.
  }
}

function boot() {
  fillLanguage();
  wire();
  wirePassScreens();
  const params = new URLSearchParams(location.search);
  const roomParam = (params.get("room") || "").trim().toUpperCase();
  if (/^[A-Z]{4}$/.test(roomParam)) {
    $("join-room").value = roomParam;
    $("join-room-field").hidden = false;
  }
  let lastName = "";
  try {
    lastName = localStorage.getItem(LAST_NAME_KEY) || "";
  } catch (_) {
    // No remembered name.
  }
  adoptTabSeat();
  const seats = device.load();
  $("join-name").value = seats.length > 0 ? seats[0].name || lastName : lastName;
  if (seats.length > 0) {
    // This device holds a seat: take it back, whichever tab this is (a reload, a new tab, a rescanned QR code).
    state.token = seats[0].token;
    link.start();
    startPageSeats();
  }
  render();
}

boot();
