// The one reducer of the page: what one seat knows, folded from what its link brings (the host's messages,
// docs/PROTOCOL.md, and the link's own news). Every seat a page holds and the board (a public-only seat) go
// through `update`. It never touches the DOM, storage, sockets or the clock: `now` is given, and whatever must
// happen outside (store a token, open or close the link, announce, focus, scroll, vibrate) comes back as effects.
import { line, problemLine } from "../strings.mjs";
import { foldEvening, newWords } from "./evening.mjs";
import { canVote, currentGame, nameOf, nextName, seatOf, voteFromRoom } from "./game.mjs";
import { foldModerator, moderatorFromRoom } from "./moderator.mjs";

/** At most this many lines of events are kept. */
export const EVENT_LIMIT = 200;

/** A seat before its link has said anything. `fields` may give what the device kept (`token`, `id`, …). */
export function newSeat(fields = {}) {
  return {
    key: 0, // the page's handle on the seat: its link and its effects are named by it
    watch: false, // public-only: the board, or a page watching a running game to join after it
    token: null,
    id: null,
    name: "",
    opened: false, // this player opened the room (開新房間)
    seen: 0, // the game whose word was already shown once
    hello: null, // what a hello without a token asks for
    autoName: 0, // an English default name's number, while the page picks it
    claim: "", // the away seat asked back (hello.claim)
    claimPending: "", // the host is asking the room for it
    joined: false,
    replaced: false, // the seat went on in another tab or device
    link: "idle",
    attempt: 0,
    everConnected: false,
    room: null,
    names: {}, // every name seen per player id
    categories: [], // the host's bank, for the owner's picks
    dealt: null, // { game, word, blank }: only ever from a deal addressed to this seat
    voting: null,
    ballot: null,
    guessing: null,
    result: null,
    tie: null, // the vote that tied into the PK on now: its tally stays in view through the PK
    cluesSinceResult: 0, // clues given since the last vote closed: the board shows the result until the first
    gameOver: null,
    timer: null, // { endsAt, kind }
    events: [],
    notice: null, // the host's last refusal of a move
    problem: null, // why the door is closed: a refused hello, a bye
    needRoom: false,
    needPassword: false,
    suggestedName: "",
    wasOwner: false, // this seat owned the room when last seen (kept on the device, so a new tab knows it too)
    ownerNews: null, // the room changed hands: { player, previous, reason, game, phase }, shown until the next deal
    claimAsked: null, // this seat is asked to let someone take back a seat: { player, name }
    moderatorAsked: false, // the owner asks this seat to be the moderator (法官)
    // What only the moderator sees (every word and role, the ballots, the guesses, the typed pair): only ever from
    // a `moderator_view` addressed to this seat, and dropped as soon as this seat is not the moderator.
    moderatorView: null,
    pairsTaken: 0, // pairs the host took from this moderator: the pair's fields start empty after each
    lastTurnKey: "",
    lastVoteKey: "",
    cluesSent: 0, // this seat's clues the host took: the clue box starts empty after each
    settingsReset: 0, // refused settings: the form shows again what is in force
    pending: [], // moves made while the link was down: { message, at } (at: `moveKey` of the room then)
    resending: false, // back after a drop: the first snapshot decides which pending moves still apply
    resentBallot: null, // a ballot sent again on coming back: { key, target }, shown until the vote closes
    gone: false, // given up (left, kicked, room closed, token expired): the page lets it go
    words: newWords(), // the owner's work on the room's own list (evening.mjs)
    history: [], // the records of the room's finished games, oldest first
    ...fields,
  };
}

/** Folds one message into `seat`; returns the new seat and the effects to run. `seat` itself is not changed. */
export function update(seat, message, now) {
  const next = { ...seat };
  const effects = [];
  const fx = (effect) => effects.push(effect);
  const record = (entry) => {
    next.events = [...next.events, entry].slice(-EVENT_LIMIT);
  };
  const announce = (entry) => fx({ type: "announce", line: entry });
  const setTimer = (ms, kind, paused = Boolean(next.room && next.room.paused)) => {
    // A paused timer keeps what is left: it shows that, without counting down.
    next.timer = typeof ms === "number" ? { endsAt: now + ms, kind: kind || "", paused, leftMs: ms } : null;
  };
  const turnNews = (player, round, pk) => {
    const key = `${currentGame(next)}/${round}/${player}/${pk}`;
    if (key === next.lastTurnKey) return;
    next.lastTurnKey = key;
    const name = nameOf(next, player);
    const mine = player === next.id;
    record(line("turnEvent", name, mine, pk));
    if (mine) {
      announce(line(next.room && next.room.settings.clueMode === "typed" ? "yourTurnTyped" : "yourTurnSpoken"));
      fx({ type: "vibrate" });
    } else {
      announce(line("turnOf", name));
    }
  };
  const voteNews = () => {
    const vote = next.voting;
    if (!vote) return;
    const key = `${currentGame(next)}/${vote.round}/${vote.pk}`;
    if (key === next.lastVoteKey) return;
    next.lastVoteKey = key;
    record(line("votingOpened", vote.pk));
    announce(canVote(next) ? { all: [line("votingOpened", vote.pk), line("pickVote")], sep: " · " } : line("votingOpened", vote.pk));
  };

  switch (message.type) {
    case "welcome":
      if (next.joined) record(line("reconnected"));
      next.joined = true;
      next.replaced = false;
      next.claim = "";
      next.claimPending = "";
      next.problem = null;
      next.needRoom = false;
      next.needPassword = false;
      next.id = message.you || null;
      next.watch = message.watch === true || next.watch;
      next.categories = Array.isArray(message.categories) ? message.categories : [];
      if (!next.watch) {
        next.token = message.token;
        const stored = { room: message.room, id: message.you };
        if (next.name) stored.name = next.name;
        if (message.resumed !== true) {
          next.opened = Boolean(next.hello && next.hello.create);
          stored.opened = next.opened;
        }
        fx({ type: "store", token: message.token, fields: stored });
      }
      // Back after a drop: say again whose turn it is or that a vote is open, and send what waited.
      next.resending = next.pending.length > 0;
      next.lastTurnKey = "";
      next.lastVoteKey = "";
      break;
    case "room":
      applyRoom(next, message, record, fx);
      if (next.resending) resend(next, message, fx);
      if (next.voting === null && message.phase === "voting") {
        // Joined or resumed mid-vote: the vote rebuilt from the public state.
        next.voting = voteFromRoom(message);
        voteNews();
      }
      if (message.phase === "describing" && message.turn) turnNews(message.turn, message.round, message.pk.length > 0);
      setTimer(message.timerMs, message.timerKind, message.paused === true);
      break;
    case "deal": {
      // The same deal comes again after every reconnection; only a new game resets the table.
      const isNew = !next.dealt || next.dealt.game !== message.game;
      next.dealt = { game: message.game, word: message.word, blank: message.blank === true };
      if (isNew) {
        next.ownerNews = null;
        next.gameOver = null;
        next.guessing = null;
        next.result = null;
        next.tie = null;
        record(line("gameStarted", message.game));
        if (next.seen !== message.game) {
          fx({ type: "scroll", target: "word-card" });
          fx({ type: "focus", target: "hide-word" });
        }
      }
      break;
    }
    case "turn":
      setTimer(message.timerMs, message.timerKind);
      turnNews(message.player, message.round, message.pk);
      break;
    case "clue":
      if (message.player === next.id) {
        // The clue went through: the box is empty for the next turn (a refused clue keeps its text), and the
        // word's button is what stays in reach.
        next.cluesSent += 1;
        next.notice = null;
        fx({ type: "focus", target: "forgot" });
      }
      record(line("clueEvent", nameOf(next, message.player), message.text));
      next.cluesSinceResult += 1;
      break;
    case "voting": {
      const key = `${currentGame(next)}/${message.round}/${message.pk}`;
      if (key !== next.lastVoteKey) next.ballot = null;
      next.voting = message;
      // On a resume the host says whom this seat had voted for; a ballot made while away was sent after that.
      if (next.resentBallot && next.resentBallot.key === key) next.ballot = next.resentBallot.target;
      else if (typeof message.ballot === "string") next.ballot = message.ballot;
      next.result = null;
      setTimer(message.timerMs);
      voteNews();
      break;
    }
    case "vote_progress":
      if (next.room) {
        const voted = new Set(message.voted);
        next.room = { ...next.room, seats: next.room.seats.map((s) => ({ ...s, voted: voted.has(s.id) })) };
      }
      break;
    case "vote_result": {
      next.voting = null;
      next.resentBallot = null;
      next.ballot = null;
      next.timer = null;
      next.result = message;
      // A tie's tally is kept through its PK; the PK's own result keeps it too (the same round).
      if (message.outcome === "pk") next.tie = message;
      else if (next.tie && next.tie.round !== message.round) next.tie = null;
      next.cluesSinceResult = 0;
      const lines = resultLines(next, message);
      for (const entry of lines) record(entry);
      announce(lines[lines.length - 1]);
      break;
    }
    case "guessing": {
      next.guessing = message;
      setTimer(message.timerMs, message.timerKind);
      const entry = message.player === next.id ? line("yourGuess") : line("guessOf", nameOf(next, message.player));
      record(entry);
      announce(entry);
      break;
    }
    case "game_over": {
      next.gameOver = message;
      next.voting = null;
      next.guessing = null;
      next.timer = null;
      const blank = message.reveal.find((entry) => entry.role === "blank");
      if (message.blankGuess !== undefined) record(line("blankGuess", nameOf(next, blank && blank.player), message.blankGuess));
      const summary = { all: [line(`winner.${message.winner}`), line("words", message.civilianWord, message.spyWord)] };
      record(summary);
      for (const entry of message.reveal) {
        record(line("reveal", nameOf(next, entry.player), line(`role.${entry.role}`), entry.word));
      }
      announce(summary);
      break;
    }
    case "claim_pending":
      next.claimPending = message.player;
      break;
    case "claim":
      next.claimAsked = { player: message.player, name: message.name };
      fx({ type: "focus", target: "claim-allow" });
      break;
    case "claim_done":
      if (next.claimAsked && next.claimAsked.player === message.player) next.claimAsked = null;
      break;
    case "moderator":
    case "moderator_offer":
    case "moderator_declined":
    case "moderator_view":
      foldModerator(next, message, { record, announce, fx });
      break;
    case "owner": {
      // Why it moved: the host says (`reason`); a host that does not is read from the seats it last showed. The
      // game and phase it happened in tell the board how long it is news.
      const before = seatOf(next.room, message.previous);
      const reason = message.reason || (!before || before.left ? "left" : before.connected ? "" : "away");
      const game = currentGame(next);
      const phase = next.room ? next.room.phase : "lobby";
      next.ownerNews = { player: message.player, previous: message.previous, reason, game, phase };
      const entry = ownerLine(next, next.ownerNews);
      record(entry);
      announce(entry);
      break;
    }
    case "words_report":
    case "word_list":
    case "history":
      foldEvening(next, message, fx);
      break;
    case "error":
      // A refused `words`, `words_clear` or `words_export` is answered by this error alone.
      if (next.words.sending || next.words.exportAsked) next.words = { ...next.words, sending: false, exportAsked: false };
      applyError(next, message, record, fx);
      break;
    case "bye":
      if (message.reason === "left" || message.reason === "room_closed") {
        giveUp(next, message.reason === "left" ? null : line(`bye.${message.reason}`), fx);
      } else {
        const entry = { t: `bye.${message.reason}`, a: [], fallback: message.reason };
        next.notice = entry;
        if (next.joined) record(entry);
        else next.problem = entry;
      }
      break;
    case "link":
      applyLink(next, message, record, fx);
      foldEvening(next, message, fx);
      break;
    case "send_failed":
      foldEvening(next, message, fx);
      // The link is down: a leave needs no host to forget the seat; any other move waits for the link, shown as
      // waiting (the header alone says the link is down), and goes once the host has the seat back.
      if (message.message && message.message.type === "leave") giveUp(next, null, fx);
      else if (message.message) {
        const kept = next.pending.filter((move) => move.message.type !== message.message.type);
        next.pending = [...kept, { message: message.message, at: moveKey(next.room) }];
        next.notice = null;
      }
      break;
    default:
      // pong, ping (the link answers it), and anything a newer host adds: nothing to show.
      break;
  }
  return { seat: next, effects };
}

/** Where the game stood when a move was made: a move still applies when the table is where it was. */
export function moveKey(room) {
  if (!room) return "";
  return `${room.game}/${room.round}/${room.pk.length}/${room.phase}/${room.turn || ""}`;
}

/** The first snapshot after coming back: the moves made while away go if the table is where it was, else they
 * are dropped and the seat is told to make them again. */
function resend(next, view, fx) {
  const key = moveKey(view);
  const still = next.pending.filter((move) => move.at === key);
  for (const move of still) {
    fx({ type: "send", message: move.message });
    if (move.message.type === "vote") {
      next.resentBallot = { key: `${currentGame(next)}/${view.round}/${view.pk.length > 0}`, target: move.message.target };
      next.ballot = move.message.target;
    }
  }
  if (still.length < next.pending.length) {
    next.notice = line("pendingLost");
    if (next.pending.some((move) => move.message.type === "vote" && move.at !== key)) next.ballot = null;
  }
  next.pending = [];
  next.resending = false;
}

/** A room snapshot: the events it implies (joined, left, away, back, settings), and the table reset it implies. */
function applyRoom(next, view, record, fx) {
  const before = next.room;
  if (before) {
    for (const seat of view.seats) {
      if (!before.seats.some((old) => old.id === seat.id)) record(line("joined", seat.name));
    }
    for (const seat of before.seats) {
      const now = view.seats.find((other) => other.id === seat.id);
      if (!now) record(line("left", seat.name));
      else if (seat.connected && !now.connected) record(line("wentAway", seat.name));
      else if (!seat.connected && now.connected && seat.id !== next.id) record(line("back", seat.name));
    }
    if (JSON.stringify(before.settings) !== JSON.stringify(view.settings) && (view.phase === "lobby" || view.phase === "gameOver")) {
      record(line("settingsChanged", line("settingsLine", view.settings)));
    }
    if (before.game !== view.game) {
      // A new game: the last vote and the reveal belong to the one before.
      next.result = null;
      next.tie = null;
      next.gameOver = null;
    }
  } else {
    const mine = seatOf(view, next.id);
    if (mine) record(line("joined", mine.name));
  }
  next.room = view;
  next.names = { ...next.names };
  for (const seat of view.seats) next.names[seat.id] = seat.name;
  lostOwnership(next, before, view, record, fx);
  const mine = seatOf(view, next.id);
  if (mine && next.token && mine.name !== next.name) fx({ type: "store", token: next.token, fields: { name: mine.name } });
  if (mine) next.name = mine.name;
  if (view.phase !== "voting") {
    next.voting = null;
    next.ballot = null;
  }
  if (view.phase !== "guessing") next.guessing = null;
  moderatorFromRoom(next, before, view, mine, record);
  if (view.phase === "lobby") {
    next.gameOver = null;
    next.result = null;
    next.tie = null;
  }
}

/**
 * The room moved on while this seat was away: it never heard the hand-over, so the snapshot tells it (in this tab,
 * or in a new one: the device keeps whether the seat owned the room).
 */
function lostOwnership(next, before, view, record, fx) {
  const mine = seatOf(view, next.id);
  if (!mine) return;
  const wasMine = seatOf(before, next.id);
  const owned = before ? Boolean(wasMine && wasMine.owner) : next.wasOwner;
  const owner = view.seats.find((seat) => seat.owner);
  if (owned && !mine.owner && owner && (!next.ownerNews || next.ownerNews.player !== owner.id)) {
    next.ownerNews = { player: owner.id, previous: next.id, reason: "away" };
    const entry = ownerLine(next, next.ownerNews);
    record(entry);
    fx({ type: "announce", line: entry });
  }
  if (next.token && Boolean(mine.owner) !== next.wasOwner) fx({ type: "store", token: next.token, fields: { owner: Boolean(mine.owner) } });
  next.wasOwner = Boolean(mine.owner);
}

/** The hand-over as this seat says it: "You are now the owner — 小明 was away", "Amy is now the owner — you were
 * away", "Amy is now the owner — 小明 left". */
export function ownerLine(seat, news) {
  const reason = news.reason === "away" || news.reason === "left" ? news.reason : "";
  if (news.player === seat.id) return line("ownerMoved.you", nameOf(seat, news.previous), reason);
  if (news.previous === seat.id) return line("ownerMoved.fromYou", nameOf(seat, news.player), reason);
  return line("ownerMoved.other", nameOf(seat, news.player), nameOf(seat, news.previous), reason);
}

/** The lines a closed vote adds: the tally, most votes first, then what happened. */
export function resultLines(seat, result) {
  const lines = [...result.tally]
    .sort((a, b) => b.voters.length - a.voters.length)
    .map((entry) => line("tally", nameOf(seat, entry.player), line("list", entry.voters.map((id) => nameOf(seat, id)))));
  if (result.outcome === "out") {
    lines.push(line("votedOut", nameOf(seat, result.out), result.identity ? line(`role.${result.identity}`) : undefined));
  } else if (result.outcome === "pk") {
    lines.push(line("pkEvent", line("list", result.tied.map((id) => nameOf(seat, id)))));
  } else {
    lines.push(line("nobodyOut"));
  }
  return lines;
}

/** A refusal: before joining it closes the door with a reason; after, it is a notice (or the end of the seat). */
function applyError(next, error, record, fx) {
  const entry = problemLine(error);
  if (!next.joined) {
    // A refused hello: the host closes the connection; the door says what to change.
    next.problem = entry;
    next.claimPending = "";
    if (error.code === "bad_token") {
      if (next.token) fx({ type: "forget", token: next.token });
      next.token = null;
    }
    if (error.code === "replaced") {
      next.replaced = true;
      return;
    }
    if (next.claim) {
      next.claim = "";
      fx({ type: "claim_ended" });
      return;
    }
    if (error.code === "game_in_progress" && !next.watch) {
      fx({ type: "watch" });
      return;
    }
    if (error.code === "name_taken" && next.autoName > 0) {
      // The page's own default name was taken: the next number, without asking.
      next.autoName += 1;
      next.problem = null;
      fx({ type: "open", key: next.key });
      return;
    }
    if (error.code === "name_taken" && next.hello) {
      next.suggestedName = nextName(next.hello.name || "");
      next.problem = line("nameTakenTry", next.suggestedName);
    }
    if (error.code === "room_required" || error.code === "room_not_found") next.needRoom = true;
    if (error.code === "wrong_password") next.needPassword = true;
    return;
  }
  if (error.code === "replaced") {
    // Another tab (or device) took this seat with its token: this one steps aside until asked back.
    next.replaced = true;
    return;
  }
  next.notice = entry;
  record(entry);
  if (error.code === "kicked" || error.code === "bad_token") {
    giveUp(next, entry, fx);
  } else if (error.code === "clue_has_word" || error.code === "bad_clue") {
    fx({ type: "focus", target: "clue-input" });
  } else if (error.code === "self_vote" || error.code === "bad_target") {
    next.ballot = null;
  } else if (["bad_settings", "too_many_spies", "bad_message", "not_owner"].includes(error.code)) {
    next.settingsReset += 1;
  }
}

/** The seat is given up (left, kicked, the room closed): the device forgets it and the door says why. */
function giveUp(next, why, fx) {
  fx({ type: "close", key: next.key });
  if (next.token) fx({ type: "forget", token: next.token });
  next.token = null;
  next.gone = true;
  next.problem = why;
}

/** The link's own news: connected, reconnecting (attempt n), closed. */
function applyLink(next, news, record, fx) {
  const before = next.link;
  next.link = news.status;
  next.attempt = news.attempt || 0;
  if (news.status === "connected") next.everConnected = true;
  if (news.status === "reconnecting" && before === "connected" && next.joined) record(line("lostHost"));
  if (news.status === "reconnecting" || news.status === "closed") {
    if (!next.joined) fx({ type: "door" });
  }
}
