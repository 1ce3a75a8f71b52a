// The pass screens of a page with several seats (seats.js): every private moment (a word, a typed clue, a ballot,
// a blank's guess, 忘詞) waits behind "pass the device to NAME", is drawn for that one seat only, and is hidden
// before the next. The document never holds two seats' words: the others stay in script memory, and nothing
// private stays drawn while the page is hidden.
"use strict";

function P() {
  return PASS_STRINGS[lang];
}

/**
 * What the pass screen shows: `open` is the key of the private moment whose "I am NAME" was tapped (drawn until
 * done or hidden); `forgot` the 忘詞 page's step (`{ step: "list" }`, `{ step: "sure", id }`,
 * `{ step: "word", id }`).
 */
const passScreen = { open: "", forgot: null, drawn: "", ballots: new Set() };

/** The private moments waiting on this page, in the order the device goes round. */
function privateMoments(seats) {
  const room = state.room;
  if (!room || !inGame()) return [];
  const moments = [];
  for (const seat of seats) {
    const dealt = seat.dealt;
    if (!dealt || dealt.game !== room.game) continue;
    const stored = device.get(seat.token);
    if (stored && stored.seen === dealt.game) continue;
    moments.push({ kind: "word", seat, key: `word/${dealt.game}/${seat.id}` });
  }
  const pk = room.pk.length;
  if (room.phase === "describing" && room.settings.clueMode === "typed") {
    const seat = seats.find((s) => s.id === room.turn);
    if (seat) moments.push({ kind: "clue", seat, key: `clue/${room.game}/${room.round}/${pk}/${seat.id}` });
  }
  if (room.phase === "voting") {
    for (const seat of seats) {
      const key = `vote/${room.game}/${room.round}/${pk}/${seat.id}`;
      const public_ = seatOf(room, seat.id);
      if (!seat.voting || !seat.voting.voters.includes(seat.id)) continue;
      if ((public_ && public_.voted) || passScreen.ballots.has(key)) continue;
      moments.push({ kind: "vote", seat, key });
    }
  }
  if (room.phase === "guessing") {
    const seat = seats.find((s) => s.guessing && s.guessing.player === s.id);
    if (seat) moments.push({ kind: "guess", seat, key: `guess/${room.game}/${seat.id}` });
  }
  return moments;
}

function renderSharedPage() {
  renderDeviceSeats();
  renderPassScreen();
}

/** The hidden page or another tab: nothing private stays drawn. */
function hidePrivate() {
  passScreen.open = "";
  passScreen.forgot = null;
  renderPassScreen();
}

function renderPassScreen() {
  const section = $("pass");
  const seats = allPageSeats();
  const shared = sharedPage() && state.joined && state.room && !state.replaced;
  if (!shared || document.visibilityState === "hidden") {
    passScreen.open = "";
    passScreen.forgot = null;
    drawPass(section, "", () => []);
    return;
  }
  const room = state.room;
  const moment = privateMoments(seats)[0];
  if (moment) passScreen.forgot = null;
  if (moment && passScreen.open === moment.key) {
    drawPass(section, `${moment.key}/shown/${lang}/${moment.seat.notice}`, () => momentScreen(moment));
  } else if (moment) {
    passScreen.open = "";
    drawPass(section, `${moment.key}/pass/${lang}`, () => passPrompt(moment));
  } else if (passScreen.forgot && inGame()) {
    const forgot = passScreen.forgot;
    drawPass(section, `forgot/${forgot.step}/${forgot.id || ""}/${lang}/${seats.map((s) => s.id)}`, () =>
      forgotScreen(seats, forgot),
    );
  } else {
    passScreen.forgot = null;
    const spoken = room.phase === "describing" && room.settings.clueMode === "spoken";
    const speaker = spoken && seats.find((s) => s.id === room.turn);
    const dealt = inGame() && seats.some((s) => s.dealt && s.dealt.game === room.game);
    const key = `public/${speaker ? speaker.id : ""}/${room.round}/${dealt}/${lang}`;
    drawPass(section, key, () => publicScreen(speaker, dealt));
  }
}

/** Redraws the pass screen only when what it shows changed: a form rebuilt under a finger loses the typing. */
function drawPass(section, key, build) {
  if (passScreen.drawn === key) return;
  passScreen.drawn = key;
  const nodes = key ? build() : [];
  section.replaceChildren(...nodes);
  section.hidden = nodes.length === 0;
  // The device came back scrolled down the page: the next pass screen is the first thing in view.
  const top = section.getBoundingClientRect().top;
  const header = document.querySelector(".bar").getBoundingClientRect().bottom;
  if (nodes.length > 0 && (top < header || top > window.innerHeight / 2)) scrollBelowHeader(section);
  const first = section.querySelector("[data-focus]");
  if (first) first.focus({ preventScroll: true });
}

function passPrompt(moment) {
  const name = moment.seat.name;
  return [
    el("p", { class: "pass-to", text: P().passTo(name) }),
    el("p", { class: "hint", text: P().onlyYou(name) }),
    el("button", {
      type: "button",
      id: "pass-open",
      class: "primary",
      text: P().iAm(name),
      dataset: { focus: "" },
      onclick: () => {
        passScreen.open = moment.key;
        renderPassScreen();
      },
    }),
  ];
}

function wordLine(seat) {
  return seat.dealt.blank ? P().blankOf(seat.name) : P().wordOf(seat.name, seat.dealt.word);
}

function momentScreen(moment) {
  const seat = moment.seat;
  const notice = el("p", { class: "error", role: "alert", text: seat.notice || "" });
  switch (moment.kind) {
    case "word":
      return [
        el("p", { id: "pass-word", class: "word shown", text: wordLine(seat) }),
        el("button", {
          type: "button",
          id: "pass-hide",
          class: "primary",
          text: P().hideAndPass,
          dataset: { focus: "" },
          onclick: () => {
            device.put(seat.token, { seen: seat.dealt.game });
            if (seat.first) state.wordShown = false;
            passScreen.open = "";
            renderPassScreen();
          },
        }),
      ];
    case "clue":
    case "guess": {
      const input = el("input", { id: "pass-input", autocomplete: "off", maxlength: "400", dataset: { focus: "" } });
      const form = el(
        "form",
        {
          class: "inline-form",
          novalidate: true,
          onsubmit: (event) => {
            event.preventDefault();
            const text = input.value.trim();
            if (!text) return;
            seat.send(moment.kind === "clue" ? { type: "clue", text } : { type: "guess", word: text });
          },
        },
        el("label", {
          for: "pass-input",
          text: moment.kind === "clue" ? P().clueOf(seat.name) : P().guessOf(seat.name),
        }),
        el("div", { class: "input-row" }, input, el("button", { type: "submit", class: "primary", text: L.send })),
      );
      if (moment.kind === "clue") {
        form.append(
          el("button", {
            type: "button",
            class: "secondary",
            text: L.pass,
            onclick: () => seat.send({ type: "pass" }),
          }),
        );
      }
      return [form, notice];
    }
    case "vote": {
      const room = state.room;
      const candidates = room.seats.filter((s) => seat.voting.candidates.includes(s.id) && s.id !== seat.id);
      const list = el(
        "ul",
        { id: "pass-votes", class: "vote-list" },
        candidates.map((target) =>
          el(
            "li",
            null,
            el(
              "button",
              {
                type: "button",
                class: "vote",
                "aria-label": L.voteFor(target.seat, target.name),
                dataset: { player: target.id },
                onclick: () => confirmPassBallot(moment, target),
              },
              el("span", { class: "seat-number", text: String(target.seat) }),
              el("span", { class: "seat-name", text: target.name }),
            ),
          ),
        ),
      );
      return [el("p", { class: "prompt", text: P().voteOf(seat.name) }), list, notice];
    }
    default:
      return [];
  }
}

/**
 * The vote confirmation of a phone of one's own; once sent, the device goes on to the next voter without showing
 * the ballot.
 */
async function confirmPassBallot(moment, target) {
  const yes = await ask("ballot", L.confirmVote(target.name), L.confirmVoteYes, L.confirmVoteNo);
  if (!yes || passScreen.open !== moment.key) return;
  passScreen.ballots.add(moment.key);
  passScreen.open = "";
  moment.seat.send({ type: "vote", target: target.id });
}

/** Between private moments: a spoken turn's Done for the seat speaking, and 忘詞 once words are dealt. */
function publicScreen(speaker, dealt) {
  const nodes = [];
  if (speaker) {
    nodes.push(
      el("p", { class: "prompt", text: P().spokenTurn(speaker.name) }),
      el(
        "div",
        { class: "buttons" },
        el("button", {
          type: "button",
          id: "pass-done",
          class: "primary",
          text: P().doneOf(speaker.name),
          onclick: () => speaker.send({ type: "pass" }),
        }),
      ),
    );
  }
  if (dealt) {
    nodes.push(
      el(
        "button",
        {
          type: "button",
          id: "pass-forgot",
          class: "forgot",
          onclick: () => {
            passScreen.forgot = { step: "list" };
            renderPassScreen();
          },
        },
        el("span", { text: L.forgot }),
      ),
    );
  }
  return nodes;
}

/** The forgot page: the page's seats as buttons; tap your name, confirm, see your word until a tap. */
function forgotScreen(seats, forgot) {
  const back = el("button", {
    type: "button",
    class: "secondary",
    text: P().back,
    onclick: () => {
      passScreen.forgot = null;
      renderPassScreen();
    },
  });
  const go = (next) => {
    passScreen.forgot = next;
    renderPassScreen();
  };
  const seat = seats.find((s) => s.id === forgot.id);
  if (forgot.step === "sure" && seat) {
    return [
      el("p", { class: "pass-to", text: P().forgotSure(seat.name) }),
      el(
        "div",
        { class: "buttons" },
        el("button", {
          type: "button",
          id: "forgot-show",
          class: "primary",
          text: P().forgotShow(seat.name),
          dataset: { focus: "" },
          onclick: () => go({ step: "word", id: seat.id }),
        }),
        back,
      ),
    ];
  }
  if (forgot.step === "word" && seat && seat.dealt) {
    const hide = () => go({ step: "list" });
    return [
      el(
        "button",
        {
          type: "button",
          id: "forgot-word",
          class: "forgot-word",
          dataset: { focus: "" },
          // Hidden again when the finger lifts or the button is tapped, the keyboard's way too.
          onpointerup: hide,
          onclick: hide,
          onblur: hide,
        },
        el("span", { id: "pass-word", class: "word shown", text: wordLine(seat) }),
        el("span", { class: "hint", text: P().tapToHide }),
      ),
    ];
  }
  const dealt = seats.filter((s) => s.dealt && s.dealt.game === state.room.game);
  return [
    el("p", { class: "prompt", text: P().forgotWho }),
    el(
      "ul",
      { id: "forgot-seats", class: "vote-list" },
      dealt.map((s) =>
        el(
          "li",
          null,
          el("button", {
            type: "button",
            class: "vote",
            dataset: { player: s.id },
            text: s.name,
            onclick: () => go({ step: "sure", id: s.id }),
          }),
        ),
      ),
    ),
    back,
  ];
}

/** The seats on this device with their link and score, the add-player form, and a leave button per extra seat. */
function renderDeviceSeats() {
  const section = $("device-seats");
  const room = state.room;
  if (!state.joined || !room || state.replaced) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const seats = allPageSeats();
  const lobby = room.phase === "lobby" || room.phase === "gameOver";
  $("device-seats-heading").textContent = P().deviceSeats;
  const items = seats.map((seat) => {
    const extra = pageSeats.includes(seat);
    const pub = seatOf(room, seat.id);
    const status = extra && seat.status !== "connected" ? L.link[seat.status] : "";
    return el(
      "li",
      { class: "seat", dataset: { player: seat.id } },
      el("span", { class: "seat-name", text: seat.name }),
      el(
        "span",
        { class: "badges" },
        room.game > 0 && pub ? el("span", { class: "badge score", text: L.points(pub.score) }) : null,
        typeof status === "string" && status ? el("span", { class: "badge away", text: status }) : null,
      ),
      extra
        ? el("button", {
            type: "button",
            class: "small secondary",
            text: P().leaveSeat(seat.name),
            onclick: async () => {
              if (await ask("leave", P().confirmLeaveSeat(seat.name), L.leaveYes, L.stay)) {
                if (!seat.link.send({ type: "leave" })) seat.forget();
              }
            },
          })
        : null,
    );
  });
  redrawList($("device-seat-list"), items);
  $("add-seat").hidden = !lobby;
  $("add-seat-open").textContent = P().addSeat;
  $("add-seat-open").hidden = addSeatForm.open;
  $("add-seat-form").hidden = !addSeatForm.open;
  $("add-seat-label").textContent = P().addSeatName;
  $("add-seat-button").textContent = P().addSeatButton;
  $("add-seat-error").textContent = addSeatForm.error;
}

function wirePassScreens() {
  $("add-seat-open").addEventListener("click", () => {
    addSeatForm.open = true;
    addSeatForm.error = "";
    render();
    $("add-seat-name").focus();
  });
  $("add-seat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("add-seat-name").value.trim();
    if (!name || !state.room) return;
    addSeatForm.error = "";
    addPageSeat(name, "");
    $("add-seat-name").value = "";
    render();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") hidePrivate();
    else renderPassScreen();
  });
  window.addEventListener("pagehide", hidePrivate);
  $("play-here").addEventListener("click", restartPageSeats);
}

/** A seat played from this page (a seat of its own leaves with its own button, not the owner's 踢人). */
function onThisPage(id) {
  return allPageSeats().some((s) => s.id === id);
}

/** Marks, in the seats list, the seats that play on a shared page. */
function hereBadge(seat) {
  if (!sharedPage() || !onThisPage(seat.id)) return null;
  return el("span", { class: "badge me", text: P().here });
}
