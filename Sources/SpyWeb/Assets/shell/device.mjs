// The seats this device holds, in localStorage: a new tab, a rescanned QR code or a reopened browser finds them
// and resumes without a word. A list of `{ token, room, id, name, opened, seen }` (`opened`: the player opened the
// room with 開新房間; `seen`: the game whose word was already shown once, so a resume does not flash it again).
// A word is never stored. Only the effects runner writes here.
const KEY = "whoisspy.seats";
// Where pages before the device's list kept a tab's token.
const TAB_TOKEN_KEY = "whoisspy.token";
export const LAST_NAME_KEY = "whoisspy.lastName";

export function loadSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((seat) => seat && typeof seat.token === "string" && seat.token) : [];
  } catch (_) {
    return [];
  }
}

function save(list) {
  try {
    if (list.length > 0) localStorage.setItem(KEY, JSON.stringify(list));
    else localStorage.removeItem(KEY);
  } catch (_) {
    // Without storage a new tab joins afresh; this tab still plays.
  }
}

/** Sets `fields` on the seat of `token`, adding the seat if the device did not hold it. */
export function putSeat(token, fields) {
  const list = loadSeats();
  const index = list.findIndex((seat) => seat.token === token);
  const seat = { ...(index >= 0 ? list[index] : { token }), ...fields };
  if (index >= 0) list[index] = seat;
  else list.push(seat);
  save(list);
}

export function dropSeat(token) {
  save(loadSeats().filter((seat) => seat.token !== token));
}

/** Puts the seat of `token` first: the one a reload takes first. */
export function putFirst(token) {
  const list = loadSeats();
  const index = list.findIndex((seat) => seat.token === token);
  if (index > 0) save([list[index], ...list.filter((_, i) => i !== index)]);
}

/** A seat an older version of the page kept for this tab only joins the device's list. */
export function adoptTabSeat() {
  try {
    const token = sessionStorage.getItem(TAB_TOKEN_KEY);
    if (token && !loadSeats().some((seat) => seat.token === token)) putSeat(token, { name: sessionStorage.getItem("whoisspy.name") || "" });
    sessionStorage.removeItem(TAB_TOKEN_KEY);
  } catch (_) {
    // No storage: nothing was kept.
  }
}

export function read(key, storage = "local") {
  try {
    return (storage === "session" ? sessionStorage : localStorage).getItem(key) || "";
  } catch (_) {
    return "";
  }
}

export function write(key, value, storage = "local") {
  try {
    (storage === "session" ? sessionStorage : localStorage).setItem(key, value);
  } catch (_) {
    // Only a convenience for the next visit.
  }
}
