// Questions about a seat's view of the game, answered from its state alone: no DOM, no clock, no storage. The
// reducer (seat.mjs), the page's model (model.mjs) and the views all ask these.

/** The seat with `id` in a room snapshot. */
export function seatOf(room, id) {
  return room && id ? room.seats.find((seat) => seat.id === id) : undefined;
}

/** A player's display name: from the room, else the last one this seat saw for that id, else the id. */
export function nameOf(seat, id) {
  const public_ = seatOf(seat.room, id);
  if (public_) return public_.name;
  return (seat.names && seat.names[id]) || id || "?";
}

export function mySeat(seat) {
  return seatOf(seat.room, seat.id);
}

export function isOwner(seat) {
  const mine = mySeat(seat);
  return Boolean(mine && mine.owner);
}

export function inGame(room) {
  return Boolean(room && ["describing", "voting", "guessing"].includes(room.phase));
}

export function isMyTurn(seat) {
  return Boolean(seat.room && seat.room.phase === "describing" && seat.id && seat.room.turn === seat.id);
}

export function canVote(seat) {
  return Boolean(seat.voting && seat.id && seat.voting.voters.includes(seat.id));
}

/** Whether this seat holds a word for the game now on the table. */
export function holdsWord(seat) {
  return Boolean(seat.dealt && seat.room && inGame(seat.room) && seat.room.game === seat.dealt.game);
}

/** Just dealt and not hidden yet: the word shows until its player hides it. */
export function wordJustDealt(seat) {
  return Boolean(seat.dealt && seat.seen !== seat.dealt.game);
}

export function currentGame(seat) {
  return Math.max(seat.room ? seat.room.game : 0, seat.dealt ? seat.dealt.game : 0);
}

/** Who may vote in the vote now open, from a snapshot alone (after a resume, before any `voting`). */
export function votersOf(room) {
  const alive = room.seats.filter((seat) => seat.alive && !seat.moderator).map((seat) => seat.id);
  const others = alive.filter((id) => !room.pk.includes(id));
  return others.length > 0 ? others : alive;
}

/** The vote now open rebuilt from a snapshot, for a seat that joined or resumed mid-vote. */
export function voteFromRoom(room) {
  const pk = room.pk.length > 0;
  return {
    round: room.round,
    pk,
    candidates: pk ? room.pk : room.seats.filter((s) => s.alive && !s.moderator).map((s) => s.id),
    voters: votersOf(room),
  };
}

/** The seats this seat may vote for, in seat order. */
export function voteCandidates(seat) {
  if (!seat.voting || !seat.room) return [];
  return seat.room.seats.filter((s) => seat.voting.candidates.includes(s.id) && s.id !== seat.id);
}

/** Seconds left on the seat's running timer at `now`, or null. */
export function secondsLeft(timer, now) {
  if (!timer) return null;
  if (timer.paused) return Math.max(0, Math.ceil(timer.leftMs / 1000));
  return Math.max(0, Math.ceil((timer.endsAt - now) / 1000));
}

/** The blank of a game over, if there was one. */
export function blankOf(over) {
  const entry = over.reveal.find((e) => e.role === "blank");
  return entry ? entry.player : undefined;
}

/** The first hello of a connection for this seat: resume with the token, ask for an away seat, watch, or join. */
export function helloFor(seat, table) {
  if (seat.watch) {
    const hello = { type: "hello", protocol: 1, name: "", watch: true };
    if (seat.hello && seat.hello.room) hello.room = seat.hello.room;
    if (seat.hello && seat.hello.password) hello.password = seat.hello.password;
    return hello;
  }
  if (seat.token) return { type: "hello", protocol: 1, name: seat.name || "", token: seat.token };
  const hello = { ...(seat.hello || { type: "hello", protocol: 1, name: "" }) };
  // An empty name on an English page takes an English default name (the host's are Chinese), numbered on.
  if (seat.autoName > 0) hello.name = table.defaultName(seat.autoName);
  if (seat.claim) {
    delete hello.create;
    hello.claim = seat.claim;
  }
  return hello;
}

/** The name after a taken one: a trailing number counts on, otherwise a 2 is added (Amy → Amy2 → Amy3). */
export function nextName(name) {
  return /\d+$/.test(name) ? name.replace(/\d+$/, (d) => String(Number(d) + 1)) : `${name}2`;
}

/** Category names compare as the host compares them: without regard to case or full-width forms. */
export function sameCategory(a, b) {
  return a.normalize("NFKC").toLowerCase() === b.normalize("NFKC").toLowerCase();
}

/** The bank languages whose pairs a room's word language deals: "both" is zh-TW and English, "zh-Hans+en" both. */
export function wordLanguages(language) {
  return language === "both" ? ["zh-TW", "en"] : String(language).split("+");
}

/** The host's bank categories playable in the room's word language, with the pairs each can deal. */
export function categoryCounts(categories, settings) {
  const languages = wordLanguages(settings.language);
  const counts = new Map();
  for (const entry of categories || []) {
    if (!languages.includes(entry.language) || typeof entry.name !== "string") continue;
    const playable = settings.allowParty ? entry.pairs : entry.pairs - entry.partyPairs;
    counts.set(entry.name, (counts.get(entry.name) || 0) + playable);
  }
  return counts;
}

/** The moderator's seat in a room snapshot, if anyone moderates. */
export function moderatorOf(room) {
  return room ? room.seats.find((seat) => seat.moderator === true) : undefined;
}

/** Whether this seat is the room's moderator now. */
export function isModerator(seat) {
  const mine = mySeat(seat);
  return Boolean(mine && mine.moderator);
}

/** How many players the table has: the moderator plays no part and is not counted. */
export function tableSize(room) {
  return room ? room.seats.filter((seat) => !seat.moderator && !seat.left).length : 0;
}

/** Whether this seat may start the game: the owner, or the moderator. */
export function runsTheGame(seat) {
  return isOwner(seat) || isModerator(seat);
}
