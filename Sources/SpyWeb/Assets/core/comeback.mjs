// What a seat learns and sends on coming back after a drop: the moves made while the host was out of reach (sent
// if the table is where it was, else dropped with a word), and a hand-over of the room it never heard. Pure, used
// by the reducer (seat.mjs) and the views.
import { line } from "../strings.mjs";
import { currentGame, nameOf, seatOf } from "./game.mjs";

/** Where the game stood when a move was made: a move still applies when the table is where it was. */
export function moveKey(room) {
  if (!room) return "";
  return `${room.game}/${room.round}/${room.pk.length}/${room.phase}/${room.turn || ""}`;
}

/** The first snapshot after coming back: the moves made while away go if the table is where it was, else they
 * are dropped and the seat is told to make them again. */
export function resend(next, view, fx) {
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

/**
 * The room moved on while this seat was away: it never heard the hand-over, so the snapshot tells it (in this tab,
 * or in a new one: the device keeps whether the seat owned the room).
 */
export function lostOwnership(next, before, view, record, fx) {
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


