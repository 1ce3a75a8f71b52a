// The player page drawn from the model: the header, the door (join, watching a running game, a claim waiting,
// the seat taken by another tab), the game (views/game-view.mjs), the pass screens and the device's seats
// (views/pass-view.mjs), the settings form, and the two questions (the confirmation, the claim). It writes the
// document only through dom.mjs; what it remembers (the pass screen last drawn, the settings last filled) is
// about the document, never the game.
import { h, patch, set } from "../shell/dom.mjs";
import { scrollBelowHeader } from "../shell/effects.mjs";
import { claimAsker, firstSeat, moderatorAsker, titleOf } from "../core/model.mjs";
import { isOwner, seatOf } from "../core/game.mjs";
import { say, STRINGS } from "../strings.mjs";
import { linkText, seatItems, whereLine } from "./common.mjs";
import { renderEvening } from "./evening-view.mjs";
import { renderGame, timerText } from "./game-view.mjs";
import { renderModerator } from "./moderator-view.mjs";
import { renderPass } from "./pass-view.mjs";
import { languageMenu, staticText } from "./static-text.mjs";

const $ = (id) => document.getElementById(id);
const drawn = { pass: "", settingsReset: -1, settingsRoom: "", confirm: null, claim: null, lang: "" };

/** Draws the whole player page from `model` at `now`. */
export function renderPage(model, now, dispatch) {
  const L = STRINGS[model.ui.lang];
  const first = firstSeat(model);
  if (drawn.lang !== model.ui.lang) {
    drawn.lang = model.ui.lang;
    staticText(L);
  }
  languageMenu($("lang-menu"), model.ui.lang, L, dispatch);
  document.title = titleOf(model, L);
  set($("where"), { text: first.room ? whereLine(first.room, L) : "" });
  const header = headerLink(model, L);
  set($("link"), { text: header.text, class: `link link-${header.state}` });
  const timer = first.room ? timerText(first, L, now) : null;
  set($("timer"), { hidden: !timer, text: timer ? timer.text : "", "aria-label": timer ? timer.label : null });

  const inRoom = first.joined && first.room !== null;
  const resuming = !first.joined && first.token && first.link !== "closed";
  set($("replaced"), { hidden: !first.replaced });
  const watching = !first.joined && model.watch;
  const pending = !first.joined && (first.claimPending || first.claim) && first.link !== "closed";
  renderWatching(model, L, dispatch, watching, pending);
  renderDoor(model, L, first.joined || Boolean(resuming) || first.replaced || Boolean(watching) || Boolean(pending));
  set($("game"), { hidden: !inRoom || first.replaced });
  const passKey = renderPass(model, L, dispatch);
  if (passKey !== drawn.pass) {
    drawn.pass = passKey;
    const section = $("pass");
    if (passKey) {
      // The device came back scrolled down the page: the next pass screen is the first thing in view.
      const top = section.getBoundingClientRect().top;
      const header = document.querySelector(".bar").getBoundingClientRect().bottom;
      if (top < header || top > window.innerHeight / 2) scrollBelowHeader(section);
      const focus = section.querySelector("[data-focus]");
      if (focus) focus.focus({ preventScroll: true });
    }
  }
  if (inRoom && !first.replaced) {
    renderGame(model, first, L, now, dispatch);
    renderEvening(model, first, L);
    renderModerator(model, L, dispatch);
    fitWord($("word"));
    renderSettings(first, L);
  } else {
    set($("word"), { text: "" });
  }
  renderDialogs(model, L, dispatch);
}

/**
 * The header's one connection state: the page's own seat's link, except while the page watches a running game (its
 * watching link is what is live: "watching — you join when this game ends") or asks for a seat back.
 */
export function headerLink(model, L) {
  const first = firstSeat(model);
  if (!first.joined && (first.claimPending || first.claim) && first.link !== "closed") return { text: L.claimWaitLink, state: "connected" };
  if (!first.joined && model.watch) {
    const watch = model.watch;
    if (watch.link === "connected") return { text: L.watchingLink, state: "connected" };
    return { text: linkText(watch, L), state: watch.link === "idle" ? "idle" : watch.link };
  }
  return { text: linkText(first, L), state: first.link === "idle" ? "idle" : first.link };
}

/** The seats a watching page may ask back ("That's me"): people away from the table, while no claim is asked. */
export function claimableSeats(model) {
  const first = firstSeat(model);
  const room = model.watch && model.watch.room;
  if (!room || first.claim) return [];
  return room.seats.filter((seat) => !seat.bot && !seat.connected && !seat.left);
}

function renderWatching(model, L, dispatch, watching, pending) {
  set($("watch"), { hidden: !watching || Boolean(pending) });
  set($("claim-wait"), { hidden: !pending });
  const first = firstSeat(model);
  if (pending) {
    const id = first.claimPending || first.claim;
    const seat = seatOf(model.watch && model.watch.room, id) || seatOf(first.room, id);
    set($("claim-wait-text"), { text: L.claimPending(seat ? seat.seat : "") });
    set($("claim-cancel"), { onclick: () => dispatch({ type: "claim_cancel" }) });
  }
  if (!watching) return;
  const room = model.watch.room;
  set($("watch-where"), { text: room ? whereLine(room, L) : "" });
  set($("watch-problem"), { text: model.ui.watchProblem ? say(L, model.ui.watchProblem) : "" });
  const claimable = new Set(claimableSeats(model).map((seat) => seat.id));
  // The hint promises a button only where there is one.
  set($("watch-claim-hint"), { hidden: claimable.size === 0 });
  const thatsMe = (seat) =>
    !claimable.has(seat.id)
      ? null
      : h("button", { key: "claim", type: "button", class: "thats-me small", text: L.thatsMe, "aria-label": L.thatsMeName(seat.name),
        dataset: { claim: seat.id }, onclick: () => dispatch({ type: "claim_seat", player: seat.id }) });
  patch($("watch-seats"), room ? seatItems(room, null, L, first.claim ? null : thatsMe) : []);
}

function renderDoor(model, L, hidden) {
  const first = firstSeat(model);
  const join = model.ui.join;
  set($("join"), { hidden });
  set($("join-name"), { value: join.name, valueKey: join.nameKey });
  set($("join-room"), { value: join.room, valueKey: join.nameKey });
  set($("join-room-field"), { hidden: !first.needRoom && !join.roomShown && !join.room });
  set($("join-password-field"), { hidden: !first.needPassword });
  set($("join-error"), { text: first.problem ? say(L, first.problem) : "" });
  // Asking the host: the buttons wait for its answer (a refusal or a host that does not answer gives them back).
  const busy = !first.joined && !first.token && (first.link === "connecting" || first.link === "connected");
  set($("join-button"), { disabled: busy });
  set($("create-button"), { disabled: busy });
}

/** The settings form shows what is in force, except the field being typed in (unless a refusal reset it). */
function renderSettings(seat, L) {
  const room = seat.room;
  const reset = seat.settingsReset !== drawn.settingsReset;
  drawn.settingsReset = seat.settingsReset;
  $("settings-fields").disabled = !isOwner(seat);
  for (const input of document.querySelectorAll("[data-setting]")) {
    if (input === document.activeElement && !reset) continue;
    const value = room.settings[input.dataset.setting];
    if (input.type === "checkbox") input.checked = Boolean(value);
    else if (Array.isArray(value)) input.value = value.join(", ");
    else if (input.tagName === "SELECT") chooseOption(input, String(value), L);
    else input.value = String(value);
  }
}

/**
 * Shows `value` in a settings menu. A value the menu does not list (a newer host's word language) gets an option
 * of its own, named by its code, rather than a blank menu; the option goes once the room's value is one listed.
 */
function chooseOption(menu, value, L) {
  for (const option of [...menu.querySelectorAll("option[data-unknown]")]) if (option.value !== value) option.remove();
  const listed = [...menu.options].find((option) => option.value === value);
  if (listed && listed.dataset.unknown !== undefined) listed.textContent = L.unknownValue(value);
  if (!listed) {
    const option = document.createElement("option");
    option.value = value;
    option.dataset.unknown = "";
    option.textContent = L.unknownValue(value);
    menu.append(option);
  }
  if (menu.value !== value) menu.value = value;
}

/* The word's place is two lines high: a long word (or a narrow phone) that would take a third line gets smaller
   type instead, so 忘詞 never moves under the thumb that holds it. */
function fitWord(word) {
  const text = word.textContent;
  if (word.__fitted === text) return;
  word.__fitted = text;
  word.style.fontSize = "";
  if (!text) return;
  let size = parseFloat(getComputedStyle(word).fontSize);
  const smallest = size / 2;
  while (word.scrollHeight > word.clientHeight + 1 && size > smallest) {
    size -= 2;
    word.style.fontSize = `${size}px`;
  }
}

function renderDialogs(model, L, dispatch) {
  const dialog = $("confirm");
  const confirm = model.ui.confirm;
  if (confirm && drawn.confirm !== confirm) {
    drawn.confirm = confirm;
    dialog.dataset.kind = confirm.kind;
    set($("confirm-question"), { text: say(L, confirm.question) });
    set($("confirm-yes"), { text: L[confirm.yes] });
    set($("confirm-no"), { text: L[confirm.no] });
    dialog.returnValue = "";
    dialog.onclose = () => {
      if (drawn.confirm !== confirm) return;
      drawn.confirm = null;
      dispatch({ type: "answer", yes: dialog.returnValue === "yes" });
    };
    if (!dialog.open) dialog.showModal();
  } else if (!confirm && drawn.confirm) {
    drawn.confirm = null;
    if (dialog.open) dialog.close();
  }
  const claim = $("claim-dialog");
  const asker = claimAsker(model);
  if (asker) {
    const asked = asker.claimAsked;
    const seat = seatOf(asker.room, asked.player);
    set($("claim-question"), { text: L.claimQuestion(asked.name, seat ? seat.seat : asked.player) });
    if (!claim.open) claim.showModal();
  } else if (claim.open) {
    claim.close();
  }
  const asked = $("moderator-dialog");
  const offered = moderatorAsker(model);
  if (offered && !claim.open) {
    set($("moderator-question"), { text: L.moderator.asked(offered.name) });
    set($("moderator-accept"), { text: L.moderator.accept });
    set($("moderator-decline"), { text: L.moderator.decline });
    if (!asked.open) asked.showModal();
  } else if (!offered && asked.open) {
    asked.close();
  }
}
