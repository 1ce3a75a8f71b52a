// More than one player on one page: one device passed round the table. The page's first seat is app.js's; every
// further seat is a `PageSeat` here, with its own link, hello and resume token, kept in the device's list (app.js
// `device`) so a reload or a new tab takes back all of them. To the host and the other devices each is an ordinary
// seat. A seat's word stays in this script's memory; pass.js decides which one seat's private screen is drawn.
"use strict";

/** The further seats of this page, in the order they were added. */
const pageSeats = [];

/** One further seat: what its own messages from the host say that the page's room snapshot does not. */
class PageSeat {
  /** `stored`: a seat of the device's list to resume, or `{ hello }` for a new seat. */
  constructor(stored) {
    this.token = stored.token || null;
    this.id = stored.id || null;
    this.name = stored.name || (stored.hello ? stored.hello.name : "");
    this.newHello = stored.hello || null;
    this.joined = false;
    this.replaced = false;
    this.dealt = null;
    this.voting = null;
    this.guessing = null;
    this.notice = "";
    this.status = "idle";
    this.link = new HostLink({
      hello: () =>
        this.token ? { type: "hello", protocol: 1, name: this.name, token: this.token } : this.newHello,
      onMessage: (message) => {
        this.handle(message);
        render();
      },
      onStatus: (status) => {
        this.status = status;
        // A new seat the host would not take: the add form says why and the seat goes.
        if (status === "closed" && !this.joined) dropPageSeat(this);
        render();
      },
    });
  }

  handle(message) {
    switch (message.type) {
      case "welcome":
        this.joined = true;
        this.replaced = false;
        this.id = message.you;
        this.token = message.token;
        this.notice = "";
        device.put(message.token, { room: message.room, id: message.you, name: this.name });
        break;
      case "room": {
        const mine = seatOf(message, this.id);
        if (mine && mine.name !== this.name) {
          this.name = mine.name;
          device.put(this.token, { name: mine.name });
        }
        if (message.phase !== "voting") this.voting = null;
        else if (!this.voting) {
          // Resumed mid-vote: the vote rebuilt from the public state, as app.js does for the first seat.
          const pk = message.pk.length > 0;
          this.voting = {
            round: message.round,
            pk,
            candidates: pk ? message.pk : message.seats.filter((s) => s.alive).map((s) => s.id),
            voters: votersOf(message),
          };
        }
        if (message.phase !== "guessing") this.guessing = null;
        break;
      }
      case "deal":
        this.dealt = { game: message.game, word: message.word, blank: message.blank === true };
        break;
      case "voting":
        this.voting = message;
        break;
      case "vote_result":
        this.voting = null;
        break;
      case "guessing":
        this.guessing = message;
        break;
      case "game_over":
        this.voting = null;
        this.guessing = null;
        break;
      case "clue":
        if (message.player === this.id) this.notice = "";
        break;
      case "claim":
        // This seat is the one the room asks: the page's claim question, answered through this seat.
        askClaim(message);
        state.claimAsked.seat = this;
        break;
      case "claim_done":
        if (state.claimAsked && state.claimAsked.player === message.player) closeClaim();
        break;
      case "error":
        this.handleError(message);
        break;
      case "bye":
        if (message.reason === "left" || message.reason === "room_closed") this.forget();
        break;
      default:
        break;
    }
  }

  handleError(error) {
    const text = problemText(error);
    if (error.code === "replaced") {
      // Another tab took the page's seats; "Play here" takes them back (restartPageSeats).
      this.replaced = true;
      return;
    }
    if (!this.joined || error.code === "kicked" || error.code === "bad_token") {
      addSeatForm.error = `${this.name}: ${text}`;
      if (this.joined || error.code === "bad_token") record((S) => `${this.name}: ${problemText(error, S)}`);
      this.forget();
      return;
    }
    this.notice = text;
  }

  send(message) {
    this.notice = "";
    if (!this.link.send(message)) this.notice = L.link.reconnecting(1);
    render();
  }

  /** The seat is given up or gone: off the page and out of the device's list. */
  forget() {
    this.link.stop();
    if (this.token) device.drop(this.token);
    dropPageSeat(this);
  }
}

function dropPageSeat(seat) {
  const index = pageSeats.indexOf(seat);
  if (index >= 0) pageSeats.splice(index, 1);
}

/** More than one seat plays from this page: every private moment goes behind a pass screen (pass.js). */
function sharedPage() {
  return pageSeats.length > 0;
}

/** At boot, after app.js took the device's first seat: the device's other seats in the same room come back too. */
function startPageSeats() {
  const [first, ...others] = device.load();
  if (!first) return;
  for (const stored of others) {
    if (first.room && stored.room && stored.room !== first.room) continue;
    const seat = new PageSeat(stored);
    pageSeats.push(seat);
    seat.link.start();
  }
}

/** "Add a player on this device": a new seat in the page's room for `name`. */
function addPageSeat(name, password) {
  const hello = { type: "hello", protocol: 1, name, room: state.room.room };
  const first = state.hello || {};
  const secret = password || first.password;
  if (secret) hello.password = secret;
  const seat = new PageSeat({ hello });
  pageSeats.push(seat);
  seat.link.start();
}

/** "Play here" after another tab took the seats: all of them come back, not only the first. */
function restartPageSeats() {
  for (const seat of pageSeats) {
    if (!seat.replaced) continue;
    seat.replaced = false;
    seat.link.start();
  }
}

/**
 * The first seat left, was removed or lost its room while others still play here: the next one becomes the
 * page's first seat (app.js resumes it with its token). False when no other seat is on the page.
 */
function promotePageSeat() {
  const next = pageSeats.shift();
  if (!next) return false;
  next.link.stop();
  // The list's first seat is the one a reload takes first.
  const list = device.load();
  const index = list.findIndex((seat) => seat.token === next.token);
  if (index > 0) device.save([list[index], ...list.filter((_, i) => i !== index)]);
  state.token = next.token;
  link.start();
  return true;
}

/**
 * Every seat on the page in one shape, the first seat (app.js `state`) first:
 * `{ token, id, name, dealt, voting, guessing, notice, send(message) }`.
 */
function allPageSeats() {
  const seats = [];
  if (state.joined && state.me) {
    seats.push({
      first: true,
      token: state.token,
      id: state.me,
      name: nameOf(state.room, state.me),
      dealt: state.dealt,
      voting: state.voting,
      guessing: state.guessing,
      notice: state.notice,
      send: (message) => send(message),
    });
  }
  for (const seat of pageSeats) {
    if (!seat.joined || !seat.id) continue;
    seat.name = nameOf(state.room, seat.id) || seat.name;
    seats.push(seat);
  }
  return seats;
}

/** The add-player form's state: open, and the host's last refusal. */
const addSeatForm = { open: false, error: "" };
