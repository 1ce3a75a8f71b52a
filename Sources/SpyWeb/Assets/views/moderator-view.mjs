// The moderator's card (法官) on the player page, as descriptions for dom.mjs: to everyone, who moderates; to the
// owner between games, naming the moderator (themselves, or a seated person who is asked); to the moderator, the
// next game's pair, the timers and an absent player's turn, and what only the moderator sees (every player's word
// and role, the ballots as they come in, the guesses). What only the moderator sees is drawn from the moderator's
// own seat (`moderatorView`, which only the host's message to that seat fills) and, on a page that several seats
// share, only once the moderator said nobody else is looking.
import { h, patch, set } from "../shell/dom.mjs";
import { firstSeat, moderatorSeat, sharedPage } from "../core/model.mjs";
import { privateMoments } from "../core/moments.mjs";
import { inGame, isOwner, moderatorOf, nameOf, seatOf, tableSize } from "../core/game.mjs";

/** Whether the page's moderator may see the secret part now: always on their own device, on a shared one when opened. */
export function secretShown(model) {
  return Boolean(moderatorSeat(model)) && (!sharedPage(model) || model.ui.moderator === "open") && !model.ui.hidden;
}

/** The seat the game waits for who is away (the speaker, or the guesser), if any: the moderator may pass it. */
export function absentTurn(seat) {
  const room = seat.room;
  if (!room) return undefined;
  const waitedFor = room.phase === "describing" ? room.turn : room.phase === "guessing" && seat.guessing ? seat.guessing.player : undefined;
  const public_ = seatOf(room, waitedFor);
  return public_ && !public_.connected ? public_ : undefined;
}

/** The moderator's card: `{ shown, nodes }`. */
export function moderatorPanel(model, L, dispatch) {
  const M = L.moderator;
  const first = firstSeat(model);
  const room = first.room;
  if (!room) return { shown: false, nodes: [] };
  const moderator = moderatorOf(room);
  const mine = moderatorSeat(model);
  const owner = isOwner(first);
  const between = room.phase === "lobby" || room.phase === "gameOver";
  if (!moderator && !(owner && between)) return { shown: false, nodes: [] };
  const nodes = [h("p", { key: "who", id: "moderator-line", class: "prompt", text: moderator ? M.line(moderator.name) : M.none })];
  if (between && (owner || mine)) nodes.push(namingNodes(room, first, moderator, mine, owner, M, dispatch));
  if (mine) nodes.push(...moderatorNodes(model, mine, L, dispatch));
  return { shown: true, nodes };
}

/** Between games: the owner names the moderator (or asks someone); the owner or the moderator stops. */
function namingNodes(room, first, moderator, mine, owner, M, dispatch) {
  const candidates = room.seats.filter((s) => !s.bot && !s.moderator && !s.left && s.id !== first.id);
  const pick = (event) => {
    event.preventDefault();
    const chosen = event.target.querySelector("#moderator-pick").value;
    if (chosen) dispatch({ type: "moderator_name", player: chosen });
  };
  return h(
    "div",
    { key: "naming", class: "moderator-naming" },
    owner && (!moderator || moderator.id !== first.id)
      ? h("div", { key: "me", class: "buttons" },
        h("button", { type: "button", id: "moderator-me", class: "secondary", text: M.beMe, onclick: () => dispatch({ type: "moderator_name", player: first.id }) }))
      : null,
    owner && candidates.length > 0
      ? h(
        "form",
        { key: "ask", id: "moderator-ask-form", class: "inline-form", novalidate: true, onsubmit: pick },
        h("label", { for: "moderator-pick", text: M.pickLabel }),
        h(
          "div",
          { class: "input-row" },
          h("select", { id: "moderator-pick" }, candidates.map((s) => h("option", { key: s.id, value: s.id, text: s.name }))),
          h("button", { type: "submit", id: "moderator-ask", class: "secondary", text: M.ask }),
        ),
      )
      : null,
    moderator && (owner || mine)
      ? h("div", { key: "stop", class: "buttons" },
        h("button", { type: "button", id: "moderator-stop", class: "secondary", text: mine ? M.stopMe : M.stop, onclick: () => dispatch({ type: "moderator_stop" }) }))
      : null,
  );
}

/** The moderator's own controls and, when nobody else may be looking, what only the moderator sees. */
function moderatorNodes(model, mine, L, dispatch) {
  const M = L.moderator;
  const room = mine.room;
  const nodes = [];
  if (inGame(room)) {
    const away = absentTurn(mine);
    nodes.push(
      h("div", { key: "controls", class: "buttons" },
        h("button", { type: "button", id: "moderator-pause", class: "secondary", text: room.paused ? M.resume : M.pause,
          onclick: () => dispatch({ type: "moderate", message: { type: room.paused ? "resume" : "pause" } }) }),
        away
          ? h("button", { type: "button", id: "moderator-pass", class: "secondary", text: M.passTurn(away.name),
            onclick: () => dispatch({ type: "moderate", message: { type: "pass_turn" } }) })
          : null),
    );
    if (room.paused) nodes.push(h("p", { key: "paused", id: "moderator-paused", class: "hint", text: M.paused }));
  } else {
    const submit = (event) => {
      event.preventDefault();
      const form = event.target;
      dispatch({ type: "moderator_pair", civilian: form.querySelector("#moderator-civilian").value, spy: form.querySelector("#moderator-spy").value });
    };
    nodes.push(
      h(
        "form",
        { key: "pair", id: "moderator-pair-form", class: "inline-form", novalidate: true, onsubmit: submit },
        h("h3", { text: M.pairHeading }),
        h("label", { for: "moderator-civilian", text: M.civilianLabel }),
        h("input", { id: "moderator-civilian", autocomplete: "off", maxlength: "64", value: "", valueKey: mine.pairsTaken }),
        h("label", { for: "moderator-spy", text: M.spyLabel }),
        h("input", { id: "moderator-spy", autocomplete: "off", maxlength: "64", value: "", valueKey: mine.pairsTaken }),
        h("div", { class: "buttons" }, h("button", { type: "submit", id: "moderator-pair-send", class: "secondary", text: M.pairSend })),
      ),
    );
  }
  if (secretShown(model)) {
    nodes.push(secretNodes(mine, L));
    if (sharedPage(model)) {
      nodes.push(h("div", { key: "hide", class: "buttons" },
        h("button", { type: "button", id: "moderator-hide", class: "primary", text: M.hide, onclick: () => dispatch({ type: "moderator_screen", step: "" }) })));
    }
  } else if (sharedPage(model) && !model.ui.hidden && privateMoments(model).length === 0) {
    // While a player's pass screen waits, the device is in a player's hands: nothing to open.
    nodes.push(model.ui.moderator === "sure"
      ? h("div", { key: "sure", class: "moderator-sure" },
        h("p", { class: "pass-to", text: M.sure(mine.name) }),
        h("div", { class: "buttons" },
          h("button", { type: "button", id: "moderator-show", class: "primary", text: M.showYes(mine.name), onclick: () => dispatch({ type: "moderator_screen", step: "open" }) }),
          h("button", { type: "button", id: "moderator-back", class: "secondary", text: L.pass.back, onclick: () => dispatch({ type: "moderator_screen", step: "" }) })))
      : h("div", { key: "open", class: "buttons" },
        h("button", { type: "button", id: "moderator-screen", class: "secondary", text: M.screen, onclick: () => dispatch({ type: "moderator_screen", step: "sure" }) })));
  }
  return nodes;
}

/** What only the moderator sees: the next pair typed, the game's pair, every player's role and word, ballots, guesses. */
export function secretNodes(mine, L) {
  const M = L.moderator;
  const room = mine.room;
  const view = mine.moderatorView;
  const items = [];
  if (!view) return h("div", { key: "secret", id: "moderator-secret", class: "moderator-secret" });
  if (room.phase === "lobby" || room.phase === "gameOver") {
    items.push(h("p", { key: "next", id: "moderator-next", class: "hint", text: view.nextPair ? M.nextPair(view.nextPair.civilian, view.nextPair.spy) : M.noNextPair }));
  }
  if (view.game > 0 && view.game === room.game && room.phase !== "lobby") {
    items.push(h("p", { key: "pair", id: "moderator-pair", class: "moderator-pair", text: M.pairOf(view.civilianWord || "", view.spyWord || "") }));
    items.push(h("h3", { key: "players-heading", text: M.playersHeading }));
    items.push(h("ul", { key: "players", id: "moderator-players", class: "reveal" },
      view.players.map((entry) => {
        const public_ = seatOf(room, entry.player);
        const out = public_ ? !public_.alive : true;
        return h("li", { key: entry.player, class: `reveal-entry role-${entry.role}${out ? " is-out" : ""}`, dataset: { player: entry.player } },
          h("span", { class: "reveal-name", text: nameOf(mine, entry.player) }),
          h("span", { class: `badge role role-${entry.role}`, text: L.role[entry.role] }),
          h("span", { class: "reveal-word", text: entry.word === undefined ? "" : entry.word }),
          out && room.phase !== "gameOver" ? h("span", { class: "badge out", text: L.out }) : null);
      })));
    if (room.phase === "voting") {
      items.push(h("h3", { key: "ballots-heading", text: M.ballotsHeading }));
      const ballots = view.ballots.map((entry) =>
        h("li", { key: entry.player, dataset: { player: entry.player }, text: L.tally(nameOf(mine, entry.player), L.list(entry.voters.map((id) => nameOf(mine, id)))) }));
      items.push(h("ul", { key: "ballots", id: "moderator-ballots", class: "result-lines" }, ballots.length > 0 ? ballots : [h("li", { key: "none", class: "empty", text: M.noBallots })]));
    }
    if (view.guesses.length > 0) {
      items.push(h("h3", { key: "guesses-heading", text: M.guessesHeading }));
      items.push(h("ul", { key: "guesses", id: "moderator-guesses", class: "result-lines" },
        view.guesses.map((guess, i) => h("li", { key: i, text: M.guess(nameOf(mine, guess.player), guess.word === undefined ? M.noGuess : guess.word, guess.correct === true) }))));
    }
  }
  return h("div", { key: "secret", id: "moderator-secret", class: "moderator-secret" }, items);
}

/** The table's size as shown to everyone: the players seated, the moderator not counted. */
export function tableSizeLine(room, L) {
  return L.moderator.tableSize(tableSize(room), room.settings.maxPlayers);
}

const $ = (id) => document.getElementById(id);

/** Writes the moderator's card and the table's size into the page's markup. */
export function renderModerator(model, L, dispatch) {
  const first = firstSeat(model);
  const panel = moderatorPanel(model, L, dispatch);
  set($("moderator-card"), { hidden: !panel.shown });
  set($("moderator-heading"), { text: L.moderator.heading });
  patch($("moderator-body"), panel.nodes);
  set($("table-size"), { text: first.room ? tableSizeLine(first.room, L) : "" });
}
