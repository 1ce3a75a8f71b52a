// The pass screens of a page with several seats: every private moment (a word, a typed clue, a ballot, a blank's
// guess, 忘詞) waits behind "pass the device to NAME" and is drawn for that one seat only. What the screen shows
// is decided here from the model alone; the document never holds two seats' words.
import { inGame, seatOf } from "./game.mjs";

/** The private moments waiting on this page, in the order the device goes round. */
export function privateMoments(model) {
  const seats = model.seats.filter((seat) => seat.joined && seat.id);
  const room = model.seats[0] && model.seats[0].room;
  if (!room || !inGame(room) || seats.length < 2) return [];
  const moments = [];
  for (const seat of seats) {
    const dealt = seat.dealt;
    if (!dealt || dealt.game !== room.game || seat.seen === dealt.game) continue;
    moments.push({ kind: "word", key: seat.key, id: `word/${dealt.game}/${seat.id}` });
  }
  const pk = room.pk.length;
  if (room.phase === "describing" && room.settings.clueMode === "typed") {
    const seat = seats.find((s) => s.id === room.turn);
    if (seat) moments.push({ kind: "clue", key: seat.key, id: `clue/${room.game}/${room.round}/${pk}/${seat.id}` });
  }
  if (room.phase === "voting") {
    for (const seat of seats) {
      const id = `vote/${room.game}/${room.round}/${pk}/${seat.id}`;
      const public_ = seatOf(room, seat.id);
      if (!seat.voting || !seat.voting.voters.includes(seat.id)) continue;
      if ((public_ && public_.voted) || model.ui.pass.ballots.includes(id)) continue;
      moments.push({ kind: "vote", key: seat.key, id });
    }
  }
  if (room.phase === "guessing") {
    const seat = seats.find((s) => s.guessing && s.guessing.player === s.id);
    if (seat) moments.push({ kind: "guess", key: seat.key, id: `guess/${room.game}/${seat.id}` });
  }
  return moments;
}

/**
 * What the pass screen shows now: nothing (`none`), "pass the device" for the next moment (`pass`), the moment
 * itself once its seat said "I am NAME" (`moment`), the forgot page (`forgot`), or, between moments, the spoken
 * turn's Done and 忘詞 (`public`).
 */
export function passScreen(model) {
  const first = model.seats[0];
  const room = first && first.room;
  const seats = model.seats.filter((seat) => seat.joined && seat.id);
  if (seats.length < 2 || !room || first.replaced || model.ui.hidden) return { mode: "none" };
  const moment = privateMoments(model)[0];
  const forgot = model.ui.pass.forgot && inGame(room);
  // A typed clue is public once sent: its box needs no "pass the device" first, and 忘詞 stays in reach beside it.
  const publicClue = moment && moment.kind === "clue";
  if (moment && !(publicClue && forgot)) {
    const seat = seats.find((s) => s.key === moment.key);
    return { mode: model.ui.pass.open === moment.id || publicClue ? "moment" : "pass", moment, seat };
  }
  if (forgot) return { mode: "forgot", forgot: model.ui.pass.forgot, seats };
  const spoken = room.phase === "describing" && room.settings.clueMode === "spoken";
  const speaker = spoken ? seats.find((s) => s.id === room.turn) || null : null;
  const dealt = inGame(room) && seats.some((s) => s.dealt && s.dealt.game === room.game);
  return { mode: "public", speaker, dealt };
}
