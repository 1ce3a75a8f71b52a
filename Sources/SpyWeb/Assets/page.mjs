// The player page: joins a room over /ws, shows this player's word (once, then only while 忘詞 is held) and
// whatever the game asks of them; with several seats on the device, the pass screens. This module only starts
// things and names the intents of the page's fixed controls: the model (core/), the effects runner
// (shell/effects.mjs) and the views (views/page-view.mjs) do the rest.
import { WORDS_TEXT_BYTES } from "./core/evening.mjs";
import { initialModel } from "./core/model.mjs";
import { adoptTabSeat, LAST_NAME_KEY, loadSeats, read } from "./shell/device.mjs";
import { run } from "./shell/effects.mjs";
import { applyLanguage, initialLanguage } from "./shell/language.mjs";
import { renderPage } from "./views/page-view.mjs";

const $ = (id) => document.getElementById(id);

const lang = initialLanguage();
applyLanguage(lang);
const asked = (new URLSearchParams(location.search).get("room") || "").trim().toUpperCase();
adoptTabSeat();
const stored = loadSeats();
const model = initialModel({ lang, stored, lastName: read(LAST_NAME_KEY), roomParam: /^[A-Z]{4}$/.test(asked) ? asked : "" });
const page = run(model, renderPage);
const dispatch = page.dispatch;

const doorFields = () => ({ name: $("join-name").value, room: $("join-room").value, password: $("join-password").value });
$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  dispatch({ type: "join", ...doorFields() });
});
$("create-button").addEventListener("click", () => dispatch({ type: "create", ...doorFields() }));
$("hide-word").addEventListener("click", () => dispatch({ type: "hide_word" }));
$("start-button").addEventListener("click", () => dispatch({ type: "move", message: { type: "start" } }));
$("done-button").addEventListener("click", () => dispatch({ type: "move", message: { type: "pass" } }));
$("pass-button").addEventListener("click", () => dispatch({ type: "move", message: { type: "pass" } }));
$("clue-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("clue-input").value.trim();
  if (text) dispatch({ type: "move", message: { type: "clue", text } });
});
$("guess-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const word = $("guess-input").value.trim();
  if (word) dispatch({ type: "move", message: { type: "guess", word } });
});
$("settings-form").addEventListener("submit", (event) => event.preventDefault());
$("settings-form").addEventListener("change", (event) => {
  const input = event.target;
  if (input.dataset && input.dataset.category !== undefined) {
    const chosen = [...$("category-list").querySelectorAll("input:checked")].map((box) => box.dataset.category);
    dispatch({ type: "settings", settings: { categories: chosen } });
    return;
  }
  if (!input.dataset || !input.dataset.setting) return;
  const value = settingValue(input);
  dispatch(value === undefined ? { type: "redraw" } : { type: "settings", settings: { [input.dataset.setting]: value } });
});
$("words-form").addEventListener("submit", (event) => {
  event.preventDefault();
  dispatch({ type: "words_send", text: $("words-text").value, replace: $("words-replace").checked });
});
$("words-file").addEventListener("change", (event) => readWordsFile(event.target));
$("set-wordSource").addEventListener("change", (event) => dispatch({ type: "settings", settings: { wordSource: event.target.value } }));
$("words-export").addEventListener("click", () => dispatch({ type: "words_export" }));
$("words-clear").addEventListener("click", () => dispatch({ type: "words_clear" }));
$("history-csv").addEventListener("click", () => dispatch({ type: "history_export", format: "csv" }));
$("history-json").addEventListener("click", () => dispatch({ type: "history_export", format: "json" }));
$("leave-button").addEventListener("click", () => dispatch({ type: "leave" }));
$("play-here").addEventListener("click", () => dispatch({ type: "play_here" }));
$("claim-allow").addEventListener("click", () => dispatch({ type: "answer_claim", allow: true }));
$("claim-deny").addEventListener("click", () => dispatch({ type: "answer_claim", allow: false }));
$("claim-dialog").addEventListener("cancel", (event) => event.preventDefault());
$("moderator-accept").addEventListener("click", () => dispatch({ type: "moderator_answer", accept: true }));
$("moderator-decline").addEventListener("click", () => dispatch({ type: "moderator_answer", accept: false }));
$("moderator-dialog").addEventListener("cancel", (event) => event.preventDefault());
document.addEventListener("visibilitychange", () => dispatch({ type: "hidden", hidden: document.visibilityState === "hidden" }));
window.addEventListener("pagehide", () => dispatch({ type: "hidden", hidden: true }));
window.addEventListener("pageshow", () => dispatch({ type: "hidden", hidden: document.visibilityState === "hidden" }));
wireForgotButton($("forgot"));

/** A file of pairs, read on this device into the box: one over the host's cap is refused before it is read. */
function readWordsFile(input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  if (file.size > WORDS_TEXT_BYTES) {
    dispatch({ type: "words_draft", tooBig: true });
    return;
  }
  file.text().then(
    (text) => dispatch({ type: "words_draft", text: text.replace(/^\uFEFF/, "") }),
    () => dispatch({ type: "words_draft", unreadable: true }),
  );
}

/** A settings field's value as the host takes it; undefined when the field holds none (an empty number). */
function settingValue(input) {
  const key = input.dataset.setting;
  if (input.type === "checkbox") return input.checked;
  if (key === "categories") return input.value.split(/[,，、]/).map((part) => part.trim()).filter((part) => part.length > 0);
  if (input.type === "number" || key === "spies") {
    const value = Number(input.value);
    return Number.isInteger(value) ? value : undefined;
  }
  return input.value;
}

/** 忘詞: the word while the button is held (pointer, Space, Enter); a click with no press is a screen reader's. */
function wireForgotButton(button) {
  let pressed = false;
  const hold = (on) => dispatch({ type: "hold", on });
  button.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pressed = true;
    try {
      button.setPointerCapture(event.pointerId);
    } catch (_) {
      // Capture is a nicety: without it leaving the button still ends the hold.
    }
    hold(true);
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture", "pointerleave"]) button.addEventListener(type, () => hold(false));
  button.addEventListener("keydown", (event) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      pressed = true;
      hold(true);
    }
  });
  button.addEventListener("keyup", (event) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      hold(false);
    }
  });
  button.addEventListener("blur", () => hold(false));
  button.addEventListener("contextmenu", (event) => event.preventDefault());
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (pressed) {
      pressed = false;
      return;
    }
    // Assistive technology cannot hold: the word shows for a few seconds instead, like the terminal client's `f`.
    dispatch({ type: "recall" });
  });
}

// This device holds seats: take them back, whichever tab this is (a reload, a new tab, a rescanned QR code).
for (const seat of page.model.seats) if (seat.token) page.open(seat.key);
