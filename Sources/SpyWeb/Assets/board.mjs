// The board (/board?room=KFRW): a word-free view of one room for a TV or a projector. Its one seat is public-only
// (`hello` with `watch: true`): the host sends it only public messages, so it has no word to show before game over.
// This module only starts things: the model (core/model.mjs), the effects runner (shell/effects.mjs) and the view
// (views/board-view.mjs) do the rest.
import { firstSeat, initialModel } from "./core/model.mjs";
import { BOARD_PASSWORD_KEY, run } from "./shell/effects.mjs";
import { read } from "./shell/device.mjs";
import { applyLanguage, initialLanguage } from "./shell/language.mjs";
import { fitCards, renderBoard } from "./views/board-view.mjs";

const lang = initialLanguage();
applyLanguage(lang);
const roomParam = (new URLSearchParams(location.search).get("room") || "").trim().toUpperCase();
// A host with a password asks it of watchers too; kept for this tab only, so reconnecting needs no retyping.
const password = read(BOARD_PASSWORD_KEY, "session") || "";
const page = run(initialModel({ board: true, lang, roomParam, password }), renderBoard);

// What the page shows, for the browser tests: the room as the board last heard it.
Object.defineProperty(window, "board", { get: () => ({ room: firstSeat(page.model).room }) });

window.addEventListener("resize", () => {
  if (firstSeat(page.model).room) fitCards();
});

const image = new Image();
image.className = "qr";
image.alt = "QR";
image.addEventListener("load", () => {
  document.getElementById("qr-slot").replaceChildren(image);
  page.dispatch({ type: "qr_shown" });
});
// The same address the view prints: this page's host, with the room when the board was opened for one.
image.src = /^[A-Z]{4}$/.test(roomParam) ? `/qr.svg?room=${roomParam}` : "/qr.svg";

page.open(firstSeat(page.model).key);
