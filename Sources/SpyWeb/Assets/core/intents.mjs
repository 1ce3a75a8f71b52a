// What the people at the page do, as data: `act(model, intent, now)` returns the next model and the effects (a
// message to send, a question to ask, something to store). Handlers in the views only name an intent; they never
// write state. Pure, like the reducer.
import { line, spoken } from "../strings.mjs";
import { historyCsv, historyJson, keepsList, shownHistory, WORDS_TEXT_BYTES, wordsTextProblem } from "./evening.mjs";
import { canVote, inGame, isOwner, nameOf, seatOf } from "./game.mjs";
import { claimAsker, firstSeat, moderatorAsker, moderatorSeat, seatByKey, settle, withSeat } from "./model.mjs";
import { privateMoments } from "./moments.mjs";
import { newSeat } from "./seat.mjs";

const RECALL_MS = 3000;

/** Applies one intent of the people at the page. */
export function act(model, intent, now) {
  const effects = [];
  const next = apply(model, intent, now, effects);
  return settle(next, effects);
}

function ui(model, fields) {
  return { ...model, ui: { ...model.ui, ...fields } };
}

function ask(model, confirm, effects) {
  effects.push({ type: "focus", target: "confirm-no" });
  return ui(model, { confirm });
}

function send(model, key, message, effects) {
  const seat = seatByKey(model, key);
  if (!seat) return model;
  effects.push({ type: "send", key, message });
  return withSeat(model, { ...seat, notice: null });
}

function apply(model, intent, now, effects) {
  const first = firstSeat(model);
  switch (intent.type) {
    case "language": {
      if (!spoken(intent.lang)) return model;
      const lang = intent.lang;
      effects.push({ type: "language", lang });
      return ui(model, { lang });
    }
    case "join": {
      // An empty name takes a default one; the host's are Chinese (玩家1), so an English page picks its own.
      const typed = (intent.name || "").trim();
      const autoName = !typed && model.ui.lang === "en" ? 1 : 0;
      // The page's language goes along: a host whose locale names none starts a new room's words in it.
      const hello = { type: "hello", protocol: 1, name: typed, language: model.ui.lang };
      const room = (intent.room || "").trim().toUpperCase();
      if (intent.create) hello.create = true;
      else if (room) hello.room = room;
      if (intent.password) hello.password = intent.password;
      effects.push({ type: "remember", name: typed });
      const seat = newSeat({ key: first.key, hello, autoName, needRoom: first.needRoom, needPassword: first.needPassword, link: "connecting" });
      effects.push({ type: "open", key: first.key });
      return ui(withSeat(model, seat), { join: { ...model.ui.join, name: typed, room } });
    }
    case "create":
      // A mis-tap here would seat a guest alone in a lobby that looks like the real one: it asks first.
      return ask(model, { kind: "create", question: line("createQuestion"), yes: "createYes", no: "cancel", then: intent }, effects);
    case "answer": {
      const confirm = model.ui.confirm;
      if (!confirm) return model;
      const asked = ui(model, { confirm: null });
      return intent.yes ? confirmed(asked, confirm, effects) : asked;
    }
    case "hide_word": {
      const seat = seatByKey(model, intent.key || first.key);
      if (!seat || !seat.dealt) return model;
      if (seat.token) effects.push({ type: "store", token: seat.token, fields: { seen: seat.dealt.game } });
      if (!intent.key) effects.push({ type: "focus", target: "forgot" });
      const pass = { ...model.ui.pass, open: "" };
      return ui(withSeat(model, { ...seat, seen: seat.dealt.game }), { pass });
    }
    case "hold":
      return model.ui.holding === intent.on ? model : ui(model, { holding: intent.on });
    case "recall":
      return ui(model, { recallUntil: now + RECALL_MS });
    case "move": {
      // start, pass, clue, guess: from the page's own seat, or a pass screen's seat; a start from the moderator
      // when the page's own seat does not own the room.
      const moderator = moderatorSeat(model);
      const starter = intent.message.type === "start" && !intent.key && !isOwner(first) && moderator ? moderator.key : first.key;
      return send(model, intent.key || starter, intent.message, effects);
    }
    case "vote": {
      const seat = seatByKey(model, intent.key || first.key);
      const question = line("confirmVote", nameOf(seat, intent.target));
      const kind = intent.key ? "ballot" : "vote";
      return ask(model, { kind, key: seat.key, target: intent.target, moment: intent.moment, question, yes: "confirmVoteYes", no: "confirmVoteNo" }, effects);
    }
    case "kick": {
      // The owner kicks, or the moderator (who may be another seat of a shared page).
      const moderator = moderatorSeat(model);
      const key = isOwner(first) || !moderator ? first.key : moderator.key;
      const question = line("confirmKick", nameOf(first, intent.player));
      return ask(model, { kind: "kick", key, target: intent.player, question, yes: "kickYes", no: "cancel" }, effects);
    }
    case "moderator_name":
      // The owner names the moderator: themselves at once, anyone else by a question they answer.
      if (!isOwner(first) || !intent.player) return model;
      return send(model, first.key, { type: "moderator", player: intent.player }, effects);
    case "moderator_stop": {
      // Nobody moderates: the owner or the moderator gives the seat up.
      const seat = moderatorSeat(model) || first;
      return send(model, seat.key, { type: "moderator" }, effects);
    }
    case "moderator_answer": {
      const seat = moderatorAsker(model);
      if (!seat) return model;
      effects.push({ type: "send", key: seat.key, message: { type: "moderator_answer", accept: intent.accept === true } });
      return withSeat(model, { ...seat, moderatorAsked: false });
    }
    case "moderator_pair": {
      const seat = moderatorSeat(model);
      const civilian = (intent.civilian || "").trim();
      const spy = (intent.spy || "").trim();
      if (!seat || !civilian || !spy) return model;
      return send(model, seat.key, { type: "moderator_pair", civilian, spy }, effects);
    }
    case "moderate": {
      // The moderator's moves: start, pause, resume, pass an absent player's turn.
      const seat = moderatorSeat(model);
      if (!seat || !["start", "pause", "resume", "pass_turn"].includes(intent.message.type)) return model;
      return send(model, seat.key, intent.message, effects);
    }
    case "moderator_screen":
      // A shared page shows the moderator's screen only after "only the moderator is looking".
      if (model.ui.hidden || !moderatorSeat(model)) return model;
      if (intent.step === "sure") effects.push({ type: "focus", target: "moderator-show" });
      return ui(model, { moderator: intent.step || "" });
    case "leave": {
      const seat = seatByKey(model, intent.key || first.key);
      const question = intent.key && intent.key !== first.key
        ? line("pass.confirmLeaveSeat", seat.name)
        : line(inGame(first.room) ? "confirmLeave" : "confirmLeaveNoGame");
      return ask(model, { kind: "leave", key: seat.key, question, yes: "leaveYes", no: "stay" }, effects);
    }
    case "settings":
      if (!isOwner(first)) return model;
      return send(model, first.key, { type: "settings", settings: intent.settings }, effects);
    case "words_draft":
      // A file read on this device (or its refusal before reading): its text goes into the box, to be read over
      // and sent; nothing leaves the page yet.
      if (!keepsList(first)) return model;
      if (intent.tooBig) return withSeat(model, { ...first, words: { ...first.words, problem: line("ownWords.fileTooBig", WORDS_TEXT_BYTES / 1024) } });
      if (intent.unreadable) return withSeat(model, { ...first, words: { ...first.words, problem: line("ownWords.unreadable") } });
      return ui(withSeat(model, { ...first, words: { ...first.words, problem: null } }), {
        words: { draft: intent.text || "", draftKey: model.ui.words.draftKey + 1 },
      });
    case "words_send": {
      if (!keepsList(first) || inGame(first.room)) return model;
      const text = intent.text || "";
      const problem = wordsTextProblem(text);
      if (problem) return withSeat(model, { ...first, words: { ...first.words, problem } });
      const message = { type: "words", text };
      if (intent.replace) message.replace = true;
      const sent = send(model, first.key, message, effects);
      const seat = firstSeat(sent);
      return ui(withSeat(sent, { ...seat, words: { ...seat.words, sent: text, sending: true, problem: null, report: null } }), { words: { draft: text, draftKey: model.ui.words.draftKey } });
    }
    case "words_export": {
      if (!keepsList(first) || inGame(first.room)) return model;
      const sent = send(model, first.key, { type: "words_export" }, effects);
      const seat = firstSeat(sent);
      return withSeat(sent, { ...seat, words: { ...seat.words, exportAsked: true } });
    }
    case "words_clear": {
      if (!keepsList(first) || inGame(first.room)) return model;
      const count = first.room.wordCount || 0;
      return ask(model, { kind: "words_clear", key: first.key, question: line("ownWords.confirmClear", count), yes: "wordsClearYes", no: "cancel" }, effects);
    }
    case "history_export": {
      // A file made here from the records the host sent; only of games that are over.
      const records = shownHistory(first);
      if (records.length === 0) return model;
      const code = first.room.room;
      const file = intent.format === "json"
        ? { name: `history-${code}.json`, mime: "application/json", text: historyJson(records, code) }
        : { name: `history-${code}.csv`, mime: "text/csv", text: historyCsv(records) };
      effects.push({ type: "download", ...file });
      return model;
    }
    case "redraw":
      // A setting the page cannot send (a number field left empty): the form shows again what is in force.
      return withSeat(model, { ...first, settingsReset: first.settingsReset + 1 });
    case "play_here": {
      // The seats come back to this tab from the one that took them: all of them, not only the first.
      let next = model;
      for (const seat of model.seats) {
        if (!seat.replaced) continue;
        next = withSeat(next, { ...seat, replaced: false, notice: null });
        effects.push({ type: "open", key: seat.key });
      }
      return next;
    }
    case "claim_seat": {
      // "That's me": the room is asked to give this away seat to this page.
      effects.push({ type: "open", key: first.key });
      return ui(withSeat(model, { ...first, claim: intent.player, claimPending: "", problem: null, link: "connecting" }), { watchProblem: null });
    }
    case "claim_cancel": {
      // The page stops asking for the seat: back to watching the room (or to the door when nothing is watched).
      effects.push({ type: "close", key: first.key });
      return withSeat(model, { ...first, claim: "", claimPending: "", link: "idle" });
    }
    case "answer_claim": {
      const seat = claimAsker(model);
      if (!seat) return model;
      effects.push({ type: "send", key: seat.key, message: { type: "claim_answer", player: seat.claimAsked.player, allow: intent.allow } });
      return withSeat(model, { ...seat, claimAsked: null });
    }
    case "add_seat_open":
      effects.push({ type: "focus", target: "add-seat-name" });
      return ui(model, { addSeat: { ...model.ui.addSeat, open: true, error: null } });
    case "add_seat": {
      const name = (intent.name || "").trim();
      if (!name || !first.room) return model;
      const hello = { type: "hello", protocol: 1, name, room: first.room.room };
      if (first.hello && first.hello.password) hello.password = first.hello.password;
      const seat = newSeat({ key: model.nextKey, hello, name, link: "connecting" });
      effects.push({ type: "open", key: seat.key });
      const addSeat = { ...model.ui.addSeat, error: null, nameKey: model.ui.addSeat.nameKey + 1 };
      return { ...model, seats: [...model.seats, seat], nextKey: model.nextKey + 1, ui: { ...model.ui, addSeat } };
    }
    case "pass_open":
      return ui(model, { pass: { ...model.ui.pass, open: intent.moment } });
    case "forgot":
      // The forgot page's steps: the list of names, "only NAME looking?", the word; null closes it. A hidden page
      // opens none (the word's button losing the focus as the page hides it asks for the list).
      if (model.ui.hidden) return model;
      return ui(model, { pass: { ...model.ui.pass, forgot: intent.step ? { step: intent.step, key: intent.key } : null } });
    case "hidden":
      // The page is hidden (another app, a locked screen): nothing private stays drawn.
      return ui(model, {
        hidden: intent.hidden,
        holding: false,
        pass: intent.hidden ? { ...model.ui.pass, open: "", forgot: null } : model.ui.pass,
        moderator: intent.hidden ? "" : model.ui.moderator,
      });
    case "qr_shown":
      return ui(model, { qrShown: true });
    case "board_join": {
      const seat = first;
      const hello = { ...seat.hello };
      const room = (intent.room || "").trim().toUpperCase();
      if (seat.needRoom && room) {
        hello.room = room;
        effects.push({ type: "address", room });
      }
      if (seat.needPassword) {
        hello.password = intent.password || "";
        effects.push({ type: "board_password", password: hello.password });
      }
      effects.push({ type: "open", key: seat.key });
      return ui(withSeat(model, { ...seat, hello, problem: null }), { boardRoom: hello.room || "" });
    }
    default:
      return model;
  }
}

/** The yes to a question. */
function confirmed(model, confirm, effects) {
  switch (confirm.kind) {
    case "create":
      return apply(model, { ...confirm.then, type: "join", create: true }, 0, effects);
    case "vote": {
      const seat = seatByKey(model, confirm.key);
      if (!seat || !canVote(seat)) return model;
      effects.push({ type: "focus", target: `vote:${confirm.target}` });
      return send(withSeat(model, { ...seat, ballot: confirm.target }), seat.key, { type: "vote", target: confirm.target }, effects);
    }
    case "ballot": {
      // A pass screen's ballot: the device goes on to the next voter without showing it.
      if (!privateMoments(model).some((m) => m.id === confirm.moment) || model.ui.pass.open !== confirm.moment) return model;
      const pass = { ...model.ui.pass, open: "", ballots: [...model.ui.pass.ballots, confirm.moment] };
      return send(ui(model, { pass }), confirm.key, { type: "vote", target: confirm.target }, effects);
    }
    case "kick":
      return seatOf(firstSeat(model).room, confirm.target) ? send(model, confirm.key, { type: "kick", player: confirm.target }, effects) : model;
    case "leave":
      effects.push({ type: "send", key: confirm.key, message: { type: "leave" } });
      return model;
    case "words_clear": {
      const first = firstSeat(model);
      if (!keepsList(first) || inGame(first.room)) return model;
      const sent = send(model, first.key, { type: "words_clear" }, effects);
      const seat = firstSeat(sent);
      return withSeat(sent, { ...seat, words: { ...seat.words, sent: "", sending: true, problem: null, report: null } });
    }
    default:
      return model;
  }
}
