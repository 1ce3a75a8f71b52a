// Recorded games (Tests/Web/transcripts/*.jsonl, written by scripts/record-web-transcripts.mjs from a real spyd)
// replayed through the page's reducer, one seat's connections at a time, as the page's links deliver them.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { newSeat, update } from "../../Sources/SpyWeb/Assets/core/seat.mjs";

const folder = join(dirname(fileURLToPath(import.meta.url)), "transcripts");

/** Every line of a transcript: `{ at, conn, recv | send | closed }`. */
export function transcript(name) {
  return readFileSync(join(folder, `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((text) => text.trim() !== "")
    .map((text) => JSON.parse(text));
}

/** The messages `conns` received, in order. */
export function received(lines, ...conns) {
  return lines.filter((l) => conns.includes(l.conn) && l.recv).map((l) => l.recv);
}

/**
 * Plays what `conns` (one seat's connections, in turn) received through `update`, with the link's news around
 * them: connected at a connection's first welcome or snapshot, reconnecting when it closes. Returns the seat at
 * the end and every step: `{ message, before, seat, effects }`.
 */
export function replay(lines, conns, fields = {}) {
  let seat = newSeat(fields);
  const steps = [];
  const opened = new Set();
  const feed = (message, at) => {
    const before = seat;
    const result = update(seat, message, at);
    seat = result.seat;
    steps.push({ message, before, seat, effects: result.effects });
  };
  for (const l of lines) {
    if (!conns.includes(l.conn)) continue;
    if (l.recv) {
      if (!opened.has(l.conn) && (l.recv.type === "welcome" || l.recv.type === "room")) {
        opened.add(l.conn);
        feed({ type: "link", status: "connected", attempt: 0 }, l.at);
      }
      feed(l.recv, l.at);
    } else if (l.closed) {
      feed({ type: "link", status: seat.gone ? "closed" : "reconnecting", attempt: 1 }, l.at);
    }
  }
  return { seat, steps };
}

/** The steps whose message has `type`. */
export function stepsOf(steps, type) {
  return steps.filter((step) => step.message.type === type);
}

/** Every effect of the steps, flattened. */
export function effectsOf(steps, type) {
  return steps.flatMap((step) => step.effects).filter((effect) => !type || effect.type === type);
}
