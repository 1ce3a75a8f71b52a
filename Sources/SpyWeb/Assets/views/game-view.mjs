// The player page's game panel for its own seat: the word card (shown until hidden, then held to see), what to do
// now (the prompt, the lobby's start, the clue, the ballot, the guess), the vote's result and the reveal, the
// seats with the owner's kick buttons, and the settings summary with the owner's category picks. The pure parts
// (`wordCard`, `actionPanel`, `voteItems`, `gameOverPanel`, `categoryItems`, `seatExtras`) are functions of the
// model and a sentence table, tested under node; `renderGame` writes them into the page's markup through dom.mjs.
import { h, patch, set } from "../shell/dom.mjs";
import { moderatorSeat, sharedPage } from "../core/model.mjs";
import { privateMoments } from "../core/moments.mjs";
import { ownerLine } from "../core/seat.mjs";
import { blankOf, canVote, categoryCounts, holdsWord, inGame, isModerator, isMyTurn, isOwner, mySeat, nameOf, sameCategory, secondsLeft, voteCandidates } from "../core/game.mjs";
import { line, say } from "../strings.mjs";
import { clueItems, resultItems, revealItems, seatItems } from "./common.mjs";

/**
 * The word card of the page's own seat at `now`: hidden on a shared page (the pass screens show the words) and
 * outside a game; the word shows while just dealt, while 忘詞 is held, and for a moment after a screen reader's
 * activation.
 */
export function wordCard(model, seat, L, now) {
  const shown = holdsWord(seat) && !sharedPage(model) && !seat.replaced;
  if (!shown) return { shown: false, text: "", visible: false, holding: false, hideShown: false, forgotShown: false };
  const justDealt = seat.seen !== seat.dealt.game;
  const visible = justDealt || model.ui.holding || now < model.ui.recallUntil;
  const text = visible ? (seat.dealt.blank ? L.youAreBlank : L.yourWord(seat.dealt.word)) : "";
  return { shown: true, text, visible, holding: model.ui.holding, hideShown: justDealt, forgotShown: !justDealt };
}

/** What the page's own seat does now: the prompt and which of the panel's parts show. */
export function actionPanel(model, seat, L) {
  const room = seat.room;
  const me = mySeat(seat);
  const owner = isOwner(seat);
  // The moderator starts the game too, and has no word, no turn and no ballot of their own.
  const moderator = isModerator(seat);
  // Several seats on the page: turns, ballots and guesses are taken on the pass screens.
  const shared = sharedPage(model);
  const pendingVote = seat.pending.find((move) => move.message.type === "vote");
  const here = new Set(model.seats.filter((s) => s.joined && s.id).map((s) => s.id));
  const panel = { prompt: "", promptAfter: "", lobbyActions: false, startLabel: L.start, turnSpoken: false, clueForm: false, voteList: false, guessForm: false, gameOver: false };
  switch (room.phase) {
    case "lobby":
      panel.prompt = moderator ? L.moderator.canStart : owner ? L.ownerCanStart : L.waitingForStart;
      if (seat.opened) panel.prompt = `${L.roomYouOpened(room.room)} · ${panel.prompt}`;
      panel.lobbyActions = owner || moderator;
      break;
    case "describing":
      if (isMyTurn(seat) && !shared) {
        const typed = room.settings.clueMode === "typed";
        panel.prompt = typed ? L.yourTurnTyped : L.yourTurnSpoken;
        panel.clueForm = typed;
        panel.turnSpoken = !typed;
      } else if (shared && here.has(room.turn)) {
        // The pass screen says whose turn it is on this device: once is enough.
        panel.prompt = "";
      } else {
        panel.prompt = room.turn ? L.turnOf(nameOf(seat, room.turn)) : "";
        if (me && me.sittingOut && !shared) panel.prompt = `${L.notDealt} · ${panel.prompt}`;
        else if (me && !me.alive && !shared) panel.prompt = `${L.youAreOut} · ${panel.prompt}`;
      }
      break;
    case "voting":
      if (moderator) {
        panel.prompt = L.moderator.watchVote;
      } else if (shared) {
        // The ballots still to cast on this device come first: whose is next, not "the others".
        const next = privateMoments(model).find((moment) => moment.kind === "vote");
        const voter = next && model.seats.find((s) => s.key === next.key);
        panel.prompt = voter ? L.nextBallotHere(voter.name) : L.waitVote;
      } else if (canVote(seat)) {
        if (pendingVote) panel.prompt = L.ballotPending(nameOf(seat, pendingVote.message.target));
        else panel.prompt = seat.ballot ? L.ballot(nameOf(seat, seat.ballot)) : me && me.voted ? L.votedAlready : L.pickVote;
        panel.voteList = true;
      } else if (me && me.alive && room.pk.includes(seat.id)) {
        // Tied in the PK: the others choose between the tied players.
        const rivals = room.pk.filter((id) => id !== seat.id).map((id) => nameOf(seat, id));
        panel.prompt = L.inPk(say(L, line("list", rivals)));
      } else {
        panel.prompt = me && me.sittingOut ? L.notDealt : me && !me.alive ? L.youAreOut : L.waitVote;
      }
      break;
    case "guessing": {
      const guesser = seat.guessing ? seat.guessing.player : undefined;
      if (guesser === seat.id && !shared) {
        panel.prompt = L.yourGuess;
        panel.guessForm = true;
      } else {
        panel.prompt = L.guessOf(nameOf(seat, guesser));
      }
      break;
    }
    case "gameOver":
      // Who won comes first; what happens next after it.
      panel.promptAfter = owner || moderator ? "" : L.waitingForStart;
      panel.lobbyActions = owner || moderator;
      panel.startLabel = L.playAgain;
      panel.gameOver = Boolean(seat.gameOver);
      break;
  }
  panel.notice = seat.notice ? say(L, seat.notice) : "";
  // A move made while the host was away waits, said so (a ballot says it in the prompt).
  panel.pending = seat.pending.some((move) => move.message.type !== "vote") ? L.pendingMove : "";
  // The room changed hands since the last deal: said where the phone's holder looks, with why.
  panel.ownerNews = seat.ownerNews ? say(L, ownerLine(seat, seat.ownerNews)) : "";
  panel.result = Boolean(seat.result) && room.phase !== "voting" && room.phase !== "lobby";
  return panel;
}

/** One button per seat the page's own seat may vote for, the chosen one pressed; a tap asks before it votes. */
export function voteItems(seat, L, dispatch) {
  return voteCandidates(seat).map((candidate) =>
    h(
      "li",
      { key: candidate.id },
      h(
        "button",
        {
          type: "button",
          class: candidate.id === seat.ballot ? (seat.pending.some((m) => m.message.type === "vote") ? "vote chosen waiting" : "vote chosen") : "vote",
          "aria-pressed": candidate.id === seat.ballot ? "true" : "false",
          "aria-label": L.voteFor(candidate.seat, candidate.name),
          dataset: { player: candidate.id },
          onclick: () => dispatch({ type: "vote", target: candidate.id }),
        },
        h("span", { class: "seat-number", text: String(candidate.seat) }),
        h("span", { class: "seat-name", text: candidate.name }),
      ),
    ),
  );
}

/** The game over's texts: who won, both words, the blank's guess. */
export function gameOverPanel(seat, L) {
  const over = seat.gameOver;
  const guess = over.blankGuess === undefined ? "" : L.blankGuess(nameOf(seat, blankOf(over)), over.blankGuess);
  return { winner: L.winner[over.winner], civilianWord: over.civilianWord, spyWord: over.spyWord, blankGuess: guess };
}

/** One checkbox per category of the host's bank in the room's word language, with the pairs it can deal. */
export function categoryItems(seat, L) {
  const settings = seat.room.settings;
  // A category with no pair to deal here is not offered (unless chosen, so that it can be unticked).
  const offered = [...categoryCounts(seat.categories, settings)].filter(
    ([name, pairs]) => pairs > 0 || settings.categories.some((chosen) => sameCategory(chosen, name)),
  );
  return offered.map(([name, pairs]) =>
    h(
      "label",
      { key: name, class: "pick" },
      h("input", { type: "checkbox", dataset: { category: name }, checked: settings.categories.some((chosen) => sameCategory(chosen, name)) }),
      h("span", { text: L.pairsIn(name, pairs) }),
    ),
  );
}

/** The owner's kick button after every other seat not played on this page; "here" after those played here. */
export function seatExtras(model, seat, L, dispatch) {
  const here = new Set(model.seats.map((s) => s.id).filter(Boolean));
  // The owner kicks, and so does the moderator (on their own phone or on a page they share).
  const owner = isOwner(seat) || Boolean(moderatorSeat(model));
  // On a shared page the seats played here are marked as such (and leave with their own button, not 踢人).
  const shared = sharedPage(model);
  return (other) => {
    if (here.has(other.id)) return shared ? h("span", { key: "here", class: "badge me", text: L.pass.here }) : null;
    if (!owner) return null;
    return h("button", {
      key: "kick",
      type: "button",
      class: "kick small",
      text: L.kick,
      "aria-label": L.kickName(other.name),
      onclick: () => dispatch({ type: "kick", player: other.id }),
    });
  };
}

/** The header's timer: its text and label, or hidden. */
export function timerText(seat, L, now) {
  if (!seat.timer || !inGame(seat.room)) return null;
  const left = secondsLeft(seat.timer, now);
  if (seat.timer.paused) return { text: L.moderator.pausedTimer(left), label: L.moderator.paused };
  return { text: seat.timer.kind === "absent" ? L.absentTimer(left) : L.seconds(left), label: L.timeLeft(left) };
}

const $ = (id) => document.getElementById(id);

/** Writes the game panel of the page's own seat into the page's markup. */
export function renderGame(model, seat, L, now, dispatch) {
  const room = seat.room;
  const card = wordCard(model, seat, L, now);
  set($("word-card"), { hidden: !card.shown, class: card.holding ? "card word-card holding" : "card word-card" });
  set($("word"), { text: card.text, class: card.visible ? "word shown" : "word" });
  set($("hide-word"), { hidden: !card.hideShown });
  set($("forgot"), { hidden: !card.forgotShown, "aria-pressed": card.holding ? "true" : "false" });
  set($("forgot-hint"), { hidden: !card.forgotShown });
  const panel = actionPanel(model, seat, L);
  set($("owner-news"), { hidden: !panel.ownerNews, text: panel.ownerNews });
  set($("prompt"), { hidden: !panel.prompt, text: panel.prompt });
  set($("prompt-after"), { hidden: !panel.promptAfter, text: panel.promptAfter });
  set($("notice"), { text: panel.notice });
  set($("pending"), { hidden: !panel.pending, text: panel.pending });
  set($("lobby-actions"), { hidden: !panel.lobbyActions });
  set($("start-button"), { text: panel.startLabel });
  set($("turn-spoken"), { hidden: !panel.turnSpoken });
  set($("clue-form"), { hidden: !panel.clueForm });
  // A clue the host took leaves the box empty for the next turn; a refused one keeps its text.
  set($("clue-input"), { value: "", valueKey: seat.cluesSent });
  set($("vote-list"), { hidden: !panel.voteList });
  if (panel.voteList) patch($("vote-list"), voteItems(seat, L, dispatch));
  set($("guess-form"), { hidden: !panel.guessForm });
  set($("game-over"), { hidden: !panel.gameOver });
  if (panel.gameOver) {
    const over = gameOverPanel(seat, L);
    set($("winner"), { text: over.winner });
    set($("civilian-word"), { text: over.civilianWord });
    set($("spy-word"), { text: over.spyWord });
    set($("blank-guess"), { text: over.blankGuess });
    patch($("reveal"), revealItems(seat, seat.gameOver, seat.id, L));
  }
  set($("result"), { hidden: !panel.result });
  if (panel.result) patch($("result-lines"), resultItems(seat, seat.result, L));
  // On a shared page no seat is "you": the seats of this page are marked as here.
  patch($("seats"), seatItems(room, sharedPage(model) ? null : seat.id, L, seatExtras(model, seat, L, dispatch)));
  patch($("clues"), clueItems(seat, room, L));
  patch($("events"), seat.events.slice(-60).reverse().map((entry, i) => h("li", { key: seat.events.length - i, text: say(L, entry) })));
  const settingsShown = room.phase === "lobby" || room.phase === "gameOver";
  set($("settings"), { hidden: !settingsShown });
  if (settingsShown) {
    set($("settings-form"), { hidden: !isOwner(seat) });
    set($("settings-line"), { text: say(L, line("settingsLine", room.settings)) });
    const picks = categoryItems(seat, L);
    set($("category-picks"), { hidden: picks.length === 0 });
    // The categories are chosen one way: the ticks when the bank lists them, the text field otherwise.
    set($("set-categories-field"), { hidden: picks.length > 0 });
    patch($("category-list"), picks);
  }
}
