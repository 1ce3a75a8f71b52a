// Pieces the player page and the board both draw, as descriptions for shell/dom.mjs `patch`: the seats, the clues,
// a vote's result, the reveal, the header's line. Functions of a seat's state and a sentence table only.
import { h } from "../shell/dom.mjs";
import { resultLines } from "../core/seat.mjs";
import { nameOf } from "../core/game.mjs";
import { say } from "../strings.mjs";

/** The small labels after a seat's name: turn, owner, moderator, you, bot, away, not dealt, out and role, voted, score. */
export function seatBadges(seat, room, me, L) {
  const badges = [];
  const badge = (text, kind) => h("span", { key: kind, class: `badge ${kind}`, text });
  if (room.turn === seat.id && room.phase === "describing") badges.push(badge(`▶ ${L.turnMark}`, "turn"));
  if (seat.owner) badges.push(badge(`★ ${L.owner}`, "owner"));
  if (seat.moderator) badges.push(badge(`⚖ ${L.moderator.tag}`, "moderator"));
  if (seat.id === me) badges.push(badge(L.you, "me"));
  if (seat.bot) badges.push(badge(L.bot, "bot"));
  if (!seat.connected) badges.push(badge(L.away, "away"));
  if (seat.sittingOut && room.phase !== "lobby") badges.push(badge(L.sittingOut, "away sitting-out"));
  const inGame = room.phase !== "lobby";
  if (inGame && !seat.alive && !seat.sittingOut) badges.push(badge(L.out, "out"));
  if (seat.revealed) badges.push(badge(L.role[seat.revealed], `role role-${seat.revealed}`));
  if (room.phase === "voting" && seat.voted) badges.push(badge(`✓ ${L.voted}`, "voted"));
  if (room.game > 0 && !seat.moderator) badges.push(badge(L.points(seat.score), "score"));
  return badges;
}

/** One list item per seat, in seat order; `extra(seat)` may add controls (the owner's kick button). */
export function seatItems(room, me, L, extra) {
  return room.seats.map((seat) => {
    const classes = ["seat"];
    if (room.turn === seat.id && room.phase === "describing") classes.push("is-turn");
    if (room.phase !== "lobby" && !seat.alive && !seat.sittingOut) classes.push("is-out");
    if (seat.id === me) classes.push("is-me");
    if (seat.moderator) classes.push("is-moderator");
    if (!seat.connected) classes.push("is-away");
    return h(
      "li",
      { key: seat.id, class: classes.join(" "), dataset: { player: seat.id } },
      h("span", { class: "seat-number", text: String(seat.seat) }),
      h("span", { class: "seat-name", text: seat.name }),
      h("span", { class: "badges" }, seatBadges(seat, room, me, L)),
      extra ? extra(seat) : null,
    );
  });
}

/**
 * The clues of the current game, oldest first, with a heading line per round. With `foldBefore`, the rounds
 * before that one are one line each (the board keeps the latest clues on screen).
 */
export function clueItems(seat, room, L, foldBefore = 0) {
  const items = [];
  let round = -1;
  room.clues.forEach((clue, index) => {
    if (clue.round < foldBefore) {
      if (clue.round !== round) {
        round = clue.round;
        const count = room.clues.filter((other) => other.round === round).length;
        items.push(h("li", { key: `r${round}f`, class: "clue-round folded", text: L.roundFolded(round, count) }));
      }
      return;
    }
    if (clue.round !== round) {
      round = clue.round;
      items.push(h("li", { key: `r${round}`, class: "clue-round", text: L.round(round) }));
    }
    const text = clue.text === undefined ? (room.settings.clueMode === "spoken" ? L.spokenClue : L.passed) : clue.text;
    items.push(
      h(
        "li",
        { key: `c${index}`, class: clue.text === undefined ? "clue no-text" : "clue", dataset: { player: clue.player } },
        h("span", { class: "clue-name", text: nameOf(seat, clue.player) }),
        h("span", { class: "clue-text", text }),
      ),
    );
  });
  if (items.length === 0) items.push(h("li", { key: "empty", class: "empty", text: L.noClues }));
  return items;
}

/** "房間 KFRW · 第1局 · 第2輪 · 投票中 · PK" for a header. */
export function whereLine(room, L) {
  const parts = [L.room(room.room)];
  if (room.game > 0 && room.phase !== "lobby") parts.push(L.game(room.game));
  if (room.round > 0 && room.phase !== "lobby" && room.phase !== "gameOver") parts.push(L.round(room.round));
  let phase = L.phase[room.phase] || room.phase;
  if (room.pk.length > 0 && (room.phase === "describing" || room.phase === "voting")) phase += " · PK";
  parts.push(phase);
  return parts.join(" · ");
}

/** The lines of a closed vote. */
export function resultItems(seat, result, L) {
  return resultLines(seat, result).map((entry, i) => h("li", { key: i, text: say(L, entry) }));
}

/** The game-over reveal as list items: each player's role and word, in seat order. */
export function revealItems(seat, over, me, L) {
  return over.reveal.map((entry) =>
    h(
      "li",
      { key: entry.player, class: `reveal-entry role-${entry.role}${entry.player === me ? " is-me" : ""}`, dataset: { player: entry.player } },
      h("span", { class: "reveal-name", text: nameOf(seat, entry.player) }),
      h("span", { class: `badge role role-${entry.role}`, text: L.role[entry.role] }),
      h("span", { class: "reveal-word", text: entry.word === undefined ? "" : entry.word }),
    ),
  );
}

/** The header's link status: "" idle, else the link's state in words. */
export function linkText(seat, L) {
  const status = seat.link === "idle" ? "" : seat.link;
  if (status === "reconnecting") return L.link.reconnecting(seat.attempt);
  return status ? L.link[status] || "" : "";
}
