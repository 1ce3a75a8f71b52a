// The one effects runner: the only code that opens and closes the links, writes storage, moves the focus, scrolls,
// announces through the live region and vibrates. It holds the model, folds every link message and every intent
// into it (core/model.mjs `receive`, core/intents.mjs `act`), draws it (`render`), then runs the effects the step
// returned. A focus or a scroll waits until its target is on the page (a deal may come before the snapshot that
// shows the word card).
import { helloFor } from "../core/game.mjs";
import { act } from "../core/intents.mjs";
import { receive, seatByKey } from "../core/model.mjs";
import { say, STRINGS } from "../strings.mjs";
import { dropSeat, LAST_NAME_KEY, putFirst, putSeat, write } from "./device.mjs";
import { pickLanguage } from "./language.mjs";
import { HostLink } from "./link.mjs";

export const BOARD_PASSWORD_KEY = "whoisspy.boardPassword";

/** Starts the page on `model`; `render(model, now, run)` draws it. Returns `dispatch(intent)`. */
export function run(model, render) {
  const links = new Map();
  let pendingFocus = "";
  let pendingScroll = "";
  let announceTimer = 0;
  let drawing = false;
  const table = () => STRINGS[model.ui.lang];

  const step = ({ model: next, effects }) => {
    model = next;
    draw();
    for (const effect of effects) perform(effect);
    settleLayout();
  };
  const draw = () => {
    if (drawing) return;
    drawing = true;
    try {
      render(model, performance.now(), dispatch);
    } finally {
      drawing = false;
    }
  };
  const dispatch = (intent) => step(act(model, intent, performance.now()));
  const deliver = (key, message) => step(receive(model, key, message, performance.now()));

  function linkOf(key) {
    let link = links.get(key);
    if (!link) {
      link = new HostLink({
        hello: () => helloFor(seatByKey(model, key) || {}, table()),
        onMessage: (message) => deliver(key, message),
        onStatus: (status, attempt) => deliver(key, { type: "link", status, attempt }),
      });
      links.set(key, link);
    }
    return link;
  }

  function perform(effect) {
    switch (effect.type) {
      case "open":
        linkOf(effect.key).start();
        break;
      case "close": {
        const link = links.get(effect.key);
        links.delete(effect.key);
        if (link) link.stop();
        break;
      }
      case "send": {
        const link = links.get(effect.key);
        if (!link || !link.send(effect.message)) deliver(effect.key, { type: "send_failed", message: effect.message });
        break;
      }
      case "store":
        putSeat(effect.token, effect.fields);
        break;
      case "forget":
        dropSeat(effect.token);
        break;
      case "first":
        putFirst(effect.token);
        break;
      case "remember":
        write(LAST_NAME_KEY, effect.name);
        break;
      case "language":
        pickLanguage(effect.lang);
        draw();
        break;
      case "download": {
        // A file made on this page (the history) or from the host's answer (the list): saved, never uploaded.
        const url = URL.createObjectURL(new Blob([effect.text], { type: `${effect.mime};charset=utf-8` }));
        const anchor = document.createElement("a");
        anchor.href = url;
        anchor.download = effect.name;
        anchor.hidden = true;
        document.body.append(anchor);
        anchor.click();
        anchor.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
        break;
      }
      case "board_password":
        write(BOARD_PASSWORD_KEY, effect.password, "session");
        break;
      case "address": {
        // The address now names the room, so a reload of the TV's page comes straight back.
        const query = new URLSearchParams(location.search);
        query.set("room", effect.room);
        history.replaceState(null, "", `/board?${query}`);
        break;
      }
      case "announce": {
        const region = document.getElementById("announcer");
        if (!region) break;
        const text = say(table(), effect.line);
        region.textContent = "";
        clearTimeout(announceTimer);
        // A fresh text node after a pause makes screen readers read it even when it repeats.
        announceTimer = setTimeout(() => (region.textContent = text), 100);
        break;
      }
      case "focus":
        pendingFocus = effect.target;
        break;
      case "scroll":
        pendingScroll = effect.target;
        break;
      case "vibrate":
        // Only after the player touched the page: a browser refuses (and complains) otherwise.
        if (navigator.vibrate && (!navigator.userActivation || navigator.userActivation.hasBeenActive)) navigator.vibrate(150);
        break;
      default:
        break;
    }
  }

  function shown(node) {
    return Boolean(node) && !node.closest("[hidden]") && node.getClientRects().length > 0;
  }

  /** The focus and the scroll the last steps asked for, once their targets are on the page. */
  function settleLayout() {
    if (pendingScroll) {
      const node = document.getElementById(pendingScroll);
      if (shown(node)) {
        pendingScroll = "";
        scrollBelowHeader(node);
      }
    }
    if (pendingFocus) {
      const dialog = document.querySelector("dialog[open]");
      const target = pendingFocus.startsWith("vote:")
        ? document.querySelector(`#vote-list [data-player="${CSS.escape(pendingFocus.slice(5))}"]`)
        : document.getElementById(pendingFocus);
      const inDialog = target && dialog && dialog.contains(target);
      if (shown(target) && (!dialog || inDialog)) {
        pendingFocus = "";
        target.focus({ preventScroll: true });
      }
    }
  }

  setInterval(() => {
    // The countdowns and the word a screen reader recalled change with time alone.
    if (model.seats.some((seat) => seat.timer) || model.ui.recallUntil > performance.now() - 500) draw();
  }, 250);
  draw();
  return { dispatch, deliver, open: (key) => perform({ type: "open", key }), get model() { return model; } };
}

/** Scrolls so that `node` starts just below the sticky header. */
export function scrollBelowHeader(node) {
  const header = document.querySelector(".bar").getBoundingClientRect().bottom;
  const top = node.getBoundingClientRect().top + window.scrollY - header - 8;
  window.scrollTo({ top: Math.max(0, top), behavior: "instant" });
}
