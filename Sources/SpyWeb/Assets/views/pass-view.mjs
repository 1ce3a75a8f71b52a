// The pass screens of a page with several seats, as descriptions for dom.mjs: "pass the device to NAME", the one
// private moment of the seat that said "I am NAME" (its word, its typed clue, its ballot, its guess), the spoken
// turn's Done and 忘詞 between moments, and the forgot page. What shows is `passScreen(model)` (core/moments.mjs);
// only one seat's private text is ever in a description. Also the device's seats with the add-player form.
import { h, patch, set } from "../shell/dom.mjs";
import { passScreen } from "../core/moments.mjs";
import { seatOf, voteCandidates } from "../core/game.mjs";
import { say } from "../strings.mjs";

/** A pass-screen seat's word line: "NAME's word: W", or that NAME is the blank. */
function wordLine(P, seat) {
  return seat.dealt.blank ? P.blankOf(seat.name) : P.wordOf(seat.name, seat.dealt.word);
}

/**
 * The pass screen of `model`: `{ key, nodes }`, where `key` names what is on screen (the shell scrolls it into view
 * and focuses its `data-focus` element when it changes) and `nodes` its descriptions (none: the section hides).
 */
export function passView(model, L, dispatch) {
  const P = L.pass;
  const screen = passScreen(model);
  switch (screen.mode) {
    case "pass": {
      const name = screen.seat.name;
      return {
        key: `${screen.moment.id}/pass`,
        nodes: [
          h("p", { key: "to", class: "pass-to", text: P.passTo(name) }),
          h("p", { key: "only", class: "hint", text: P.onlyYou(name) }),
          h("button", { type: "button", id: "pass-open", class: "primary", text: P.iAm(name), dataset: { focus: "" },
            onclick: () => dispatch({ type: "pass_open", moment: screen.moment.id }) }),
        ],
      };
    }
    case "moment":
      return { key: `${screen.moment.id}/shown`, nodes: momentNodes(model, screen.moment, screen.seat, L, dispatch) };
    case "forgot":
      return { key: `forgot/${screen.forgot.step}/${screen.forgot.key || ""}`, nodes: forgotNodes(screen.seats, screen.forgot, L, dispatch) };
    case "public":
      return { key: `public/${screen.speaker ? screen.speaker.id : ""}/${screen.dealt}`, nodes: publicNodes(screen, L, dispatch) };
    default:
      return { key: "", nodes: [] };
  }
}

function momentNodes(model, moment, seat, L, dispatch) {
  const P = L.pass;
  const notice = h("p", { key: "notice", class: "error", role: "alert", text: seat.notice ? say(L, seat.notice) : "" });
  switch (moment.kind) {
    case "word":
      return [
        h("p", { key: "word", id: "pass-word", class: "word shown", text: wordLine(P, seat) }),
        h("button", { type: "button", id: "pass-hide", class: "primary", text: P.hideAndPass, dataset: { focus: "" },
          onclick: () => dispatch({ type: "hide_word", key: seat.key }) }),
      ];
    case "clue":
    case "guess": {
      const clue = moment.kind === "clue";
      const submit = (event) => {
        event.preventDefault();
        const text = event.target.querySelector("#pass-input").value.trim();
        if (!text) return;
        dispatch({ type: "move", key: seat.key, message: clue ? { type: "clue", text } : { type: "guess", word: text } });
      };
      return [
        h(
          "form",
          { key: moment.id, class: "inline-form", novalidate: true, onsubmit: submit },
          h("label", { for: "pass-input", text: clue ? P.clueOf(seat.name) : P.guessOf(seat.name) }),
          h(
            "div",
            { class: "input-row" },
            h("input", { id: "pass-input", autocomplete: "off", maxlength: "400", dataset: { focus: "" }, value: "", valueKey: seat.cluesSent }),
            h("button", { type: "submit", class: "primary", text: L.send }),
          ),
          clue ? h("button", { type: "button", class: "secondary", text: L.passTurn, onclick: () => dispatch({ type: "move", key: seat.key, message: { type: "pass" } }) }) : null,
        ),
        notice,
        clue
          ? h("button", { key: "forgot", type: "button", id: "pass-forgot", class: "forgot", onclick: () => dispatch({ type: "forgot", step: "list" }) },
            h("span", { text: L.forgot }))
          : null,
      ];
    }
    case "vote":
      return [
        h("p", { key: "prompt", class: "prompt", text: P.voteOf(seat.name) }),
        h(
          "ul",
          { id: "pass-votes", class: "vote-list" },
          voteCandidates(seat).map((target) =>
            h(
              "li",
              { key: target.id },
              h(
                "button",
                { type: "button", class: "vote", "aria-label": L.voteFor(target.seat, target.name), dataset: { player: target.id },
                  onclick: () => dispatch({ type: "vote", key: seat.key, target: target.id, moment: moment.id }) },
                h("span", { class: "seat-number", text: String(target.seat) }),
                h("span", { class: "seat-name", text: target.name }),
              ),
            ),
          ),
        ),
        notice,
      ];
    default:
      return [];
  }
}

/** Between private moments: a spoken turn's Done for the seat speaking, and 忘詞 once words are dealt. */
function publicNodes(screen, L, dispatch) {
  const P = L.pass;
  const nodes = [];
  if (screen.speaker) {
    const speaker = screen.speaker;
    nodes.push(
      h("p", { key: "spoken", class: "prompt", text: P.spokenTurn(speaker.name) }),
      h("div", { key: "done", class: "buttons" },
        h("button", { type: "button", id: "pass-done", class: "primary", text: P.doneOf(speaker.name),
          onclick: () => dispatch({ type: "move", key: speaker.key, message: { type: "pass" } }) })),
    );
  }
  if (screen.dealt) {
    nodes.push(
      h("button", { type: "button", id: "pass-forgot", class: "forgot", onclick: () => dispatch({ type: "forgot", step: "list" }) },
        h("span", { text: L.forgot })),
    );
  }
  return nodes;
}

/** The forgot page: the page's seats as buttons; tap your name, confirm, see your word until a tap. */
function forgotNodes(seats, forgot, L, dispatch) {
  const P = L.pass;
  const back = h("button", { key: "back", type: "button", class: "secondary", text: P.back, onclick: () => dispatch({ type: "forgot", step: null }) });
  const seat = seats.find((s) => s.key === forgot.key);
  if (forgot.step === "sure" && seat) {
    return [
      h("p", { key: "sure", class: "pass-to", text: P.forgotSure(seat.name) }),
      h("div", { key: "buttons", class: "buttons" },
        h("button", { type: "button", id: "forgot-show", class: "primary", text: P.forgotShow(seat.name), dataset: { focus: "" },
          onclick: () => dispatch({ type: "forgot", step: "word", key: seat.key }) }),
        back),
    ];
  }
  if (forgot.step === "word" && seat && seat.dealt) {
    // Hidden again when the finger lifts or the button is tapped, the keyboard's way too.
    const hide = () => dispatch({ type: "forgot", step: "list" });
    return [
      h("button", { key: "word", type: "button", id: "forgot-word", class: "forgot-word", dataset: { focus: "" }, onpointerup: hide, onclick: hide, onblur: hide },
        h("span", { id: "pass-word", class: "word shown", text: wordLine(P, seat) }),
        h("span", { class: "hint", text: P.tapToHide })),
    ];
  }
  const game = seats[0].room.game;
  return [
    h("p", { key: "who", class: "prompt", text: P.forgotWho }),
    h("ul", { id: "forgot-seats", class: "vote-list" },
      seats.filter((s) => s.dealt && s.dealt.game === game).map((s) =>
        h("li", { key: s.key },
          h("button", { type: "button", class: "vote", dataset: { player: s.id }, text: s.name, onclick: () => dispatch({ type: "forgot", step: "sure", key: s.key }) })))),
    back,
  ];
}

/** The seats on this device with their score and link, and a leave button for each seat but the first. */
export function deviceSeatItems(model, L, dispatch) {
  const P = L.pass;
  const room = model.seats[0].room;
  return model.seats.filter((seat) => seat.joined || seat.token).map((seat, index) => {
    const extra = index > 0;
    const pub = seatOf(room, seat.id);
    const status = extra && seat.link !== "connected" && seat.link !== "idle" ? L.link[seat.link] : "";
    return h(
      "li",
      { key: seat.key, class: "seat", dataset: { player: seat.id || "" } },
      h("span", { class: "seat-name", text: seat.name }),
      h("span", { class: "badges" },
        room && room.game > 0 && pub ? h("span", { key: "score", class: "badge score", text: L.points(pub.score) }) : null,
        typeof status === "string" && status ? h("span", { key: "away", class: "badge away", text: status }) : null),
      extra ? h("button", { key: "leave", type: "button", class: "small secondary", text: P.leaveSeat(seat.name), onclick: () => dispatch({ type: "leave", key: seat.key }) }) : null,
    );
  });
}

/** What the device's card shows: the list of its seats (when it holds more than one), the add-a-player form (between
 * games). */
export function deviceSeatsCard(model) {
  const room = model.seats[0].room;
  const held = model.seats.filter((seat) => seat.joined || seat.token).length;
  return { list: held > 1, addSeat: Boolean(room) && (room.phase === "lobby" || room.phase === "gameOver") };
}

const $ = (id) => document.getElementById(id);

/** Writes the pass screen and the device's seats; returns the pass screen's key (for the shell's focus and scroll). */
export function renderPass(model, L, dispatch) {
  const first = model.seats[0];
  const view = passView(model, L, dispatch);
  set($("pass"), { hidden: view.nodes.length === 0 });
  patch($("pass"), view.nodes);
  const room = first.room;
  const shown = first.joined && room && !first.replaced;
  const { list, addSeat: adding } = deviceSeatsCard(model);
  set($("device-seats"), { hidden: !shown || (!list && !adding) });
  if (!shown) return view.key;
  const P = L.pass;
  // The list of this device's seats only when it holds more than one: one seat is the seat list's "you".
  set($("device-seats-heading"), { text: P.deviceSeats, hidden: !list });
  set($("device-seat-list"), { hidden: !list });
  patch($("device-seat-list"), list ? deviceSeatItems(model, L, dispatch) : []);
  const addSeat = model.ui.addSeat;
  set($("add-seat"), { hidden: !adding });
  set($("add-seat-open"), { text: P.addSeat, hidden: addSeat.open, onclick: () => dispatch({ type: "add_seat_open" }) });
  set($("add-seat-form"), { hidden: !addSeat.open, onsubmit: (event) => {
    event.preventDefault();
    dispatch({ type: "add_seat", name: $("add-seat-name").value });
  } });
  set($("add-seat-name"), { value: "", valueKey: addSeat.nameKey });
  set($("add-seat-label"), { text: P.addSeatName });
  set($("add-seat-button"), { text: P.addSeatButton });
  set($("add-seat-error"), { text: addSeat.error ? say(L, addSeat.error) : "" });
  return view.key;
}
