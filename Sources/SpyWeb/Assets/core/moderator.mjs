// What the moderator's (法官) messages change in a seat, for the one reducer (seat.mjs): who moderates, the question
// to this seat, the owner told of a no, and what only the moderator sees. `moderatorView` is only ever what the
// host sent this seat's own connection, and it goes as soon as this seat is not the moderator: a player's page
// never keeps it. Pure, like the reducer: `next` is the reducer's own copy of the seat.
import { line } from "../strings.mjs";
import { inGame, nameOf } from "./game.mjs";

/** Folds `moderator`, `moderator_offer`, `moderator_declined` and `moderator_view` into `next`. */
export function foldModerator(next, message, { record, announce, fx }) {
  switch (message.type) {
    case "moderator": {
      const entry = message.player === next.id ? line("moderator.youAre") : message.player ? line("moderator.is", nameOf(next, message.player)) : line("moderator.nobody");
      next.moderatorAsked = false;
      if (message.player !== next.id) next.moderatorView = null;
      record(entry);
      announce(entry);
      break;
    }
    case "moderator_offer":
      if (message.player === next.id) {
        next.moderatorAsked = true;
        fx({ type: "focus", target: "moderator-accept" });
      }
      break;
    case "moderator_declined": {
      const entry = line("moderator.declined", nameOf(next, message.player));
      next.notice = entry;
      record(entry);
      announce(entry);
      break;
    }
    case "moderator_view": {
      // A pair the host took empties the pair's fields; a refused one keeps what was typed.
      const before = next.moderatorView && next.moderatorView.nextPair;
      if (message.nextPair && JSON.stringify(message.nextPair) !== JSON.stringify(before)) next.pairsTaken += 1;
      next.moderatorView = message;
      break;
    }
    default:
      break;
  }
}

/**
 * What a room snapshot implies: the timers paused or running again (everyone hears it), the moderator's view
 * dropped from any seat that is not the moderator's, and the question to moderate ended by the deal.
 */
export function moderatorFromRoom(next, before, view, mine, record) {
  if (before && inGame(view) && before.paused !== view.paused) record(line(view.paused ? "moderator.pausedEvent" : "moderator.resumedEvent"));
  if (!mine || !mine.moderator) next.moderatorView = null;
  if (inGame(view)) next.moderatorAsked = false;
}
