#!/usr/bin/env node
// Records what a real spyd sends each connection over whole games, for the page's reducer tests
// (Tests/Web/transcripts/*.jsonl). Each scenario starts its own `spyd --host` on 127.0.0.1 with an ephemeral port
// and a fixed seed, plays it with the protocol's own frames (the same messages a browser gets over /ws), and
// writes one line per frame: `{"at":ms,"conn":NAME,"recv":MESSAGE}` or `{"at":ms,"conn":NAME,"send":MESSAGE}`,
// plus `{"at":ms,"conn":NAME,"closed":true}` when a connection ends.
//
//   node scripts/record-web-transcripts.mjs [.build/debug/spyd] [scenario…]
//
// Run it again after the host's messages change, and commit the transcripts it writes.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const spyd = args[0] && !args[0].startsWith("-") && existsSync(args[0]) ? args.shift() : join(root, ".build/debug/spyd");
const wanted = new Set(args);
const outDir = join(root, "Tests/Web/transcripts");
const DEADLINE = 20000;

/** A running spyd and the lines every connection exchanged with it. */
class Host {
  constructor(options) {
    this.scratch = mkdtempSync(join(tmpdir(), "spy-record-"));
    this.portFile = join(this.scratch, "port");
    this.lines = [];
    this.started = Date.now();
    this.process = spawn(
      spyd,
      ["--host", "--port", "0", "--port-file", this.portFile, "--bind", "127.0.0.1", "--no-state", "--no-discovery", "--no-qr", ...options],
      { stdio: ["ignore", "ignore", process.env.SPY_RECORD_TRACE ? "ignore" : "inherit"], env: { ...process.env, LANG: "zh_TW.UTF-8" } },
    );
    const stop = () => this.process.kill("SIGKILL");
    process.once("exit", stop);
    this.process.once("exit", () => process.off("exit", stop));
  }

  async port() {
    const until = Date.now() + DEADLINE;
    while (Date.now() < until) {
      if (existsSync(this.portFile)) {
        const text = readFileSync(this.portFile, "utf8").trim();
        if (text) return Number(text);
      }
      await pause(20);
    }
    throw new Error("spyd did not start");
  }

  now() {
    return Date.now() - this.started;
  }

  log(line) {
    this.lines.push({ at: this.now(), ...line });
    if (process.env.SPY_RECORD_TRACE) console.log(JSON.stringify(this.lines[this.lines.length - 1]));
  }

  async open(name, hello) {
    const connection = new Connection(this, name, await this.port());
    await connection.ready;
    connection.send(hello);
    return connection;
  }

  stop() {
    this.process.kill("SIGTERM");
    return new Promise((resolve) => this.process.on("exit", resolve));
  }

  write(file) {
    rmSync(this.scratch, { recursive: true, force: true });
    writeFileSync(join(outDir, file), this.lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    console.log(`${file}: ${this.lines.length} lines`);
  }
}

/** One TCP connection speaking the framed protocol (4-byte big-endian length, then JSON). */
class Connection {
  constructor(host, name, port) {
    this.host = host;
    this.name = name;
    this.received = [];
    this.cursor = 0;
    this.closed = false;
    this.buffer = Buffer.alloc(0);
    this.socket = connect({ host: "127.0.0.1", port });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once("connect", resolve);
      this.socket.once("error", reject);
    });
    this.socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 4) {
        const length = this.buffer.readUInt32BE(0);
        if (this.buffer.length < 4 + length) break;
        const message = JSON.parse(this.buffer.subarray(4, 4 + length).toString("utf8"));
        this.buffer = this.buffer.subarray(4 + length);
        this.host.log({ conn: this.name, recv: message });
        this.received.push(message);
        // Answer the host's probes as every client does.
        if (message.type === "ping") this.send({ type: "pong", id: message.id });
      }
    });
    this.socket.on("close", () => {
      if (!this.closed) this.host.log({ conn: this.name, closed: true });
      this.closed = true;
    });
    this.socket.on("error", () => {});
  }

  send(message) {
    this.host.log({ conn: this.name, send: message });
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    this.socket.write(Buffer.concat([head, body]));
  }

  /** Waits for a message (after those already waited for) that `test` accepts; returns it. */
  async next(test, what = "a message", timeout = DEADLINE) {
    const until = Date.now() + timeout;
    while (Date.now() < until) {
      while (this.cursor < this.received.length) {
        const message = this.received[this.cursor++];
        if (test(message)) return message;
      }
      if (this.closed) throw new Error(`${this.name} closed while waiting for ${what}`);
      await pause(5);
    }
    throw new Error(`${this.name}: timed out waiting for ${what}`);
  }

  type(type, extra = () => true) {
    return this.next((m) => m.type === type && extra(m), type);
  }

  /** The latest room snapshot received so far. */
  get room() {
    for (let i = this.received.length - 1; i >= 0; i--) if (this.received[i].type === "room") return this.received[i];
    return null;
  }

  drop() {
    this.closed = true;
    this.host.log({ conn: this.name, closed: true });
    this.socket.destroy();
  }

  async waitClosed(timeout = DEADLINE) {
    const until = Date.now() + timeout;
    while (!this.closed && Date.now() < until) await pause(5);
    if (!this.closed) throw new Error(`${this.name} still open`);
  }
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const hello = (name, extra = {}) => ({ type: "hello", protocol: 1, name, ...extra });

/** Plays `players` (connections by id) until game over: typed clues or passes, ballots from `choose`. */
async function playToGameOver(players, watcher, { clue = () => null, choose, guess = null }) {
  const until = Date.now() + 120000;
  for (;;) {
    if (Date.now() > until) throw new Error("the game did not end");
    const room = watcher.room;
    if (room && room.phase === "gameOver") return;
    if (room && room.phase === "describing" && players[room.turn]) {
      const text = clue(room.turn, room);
      const conn = players[room.turn];
      const before = room.clues.length;
      conn.send(text ? { type: "clue", text } : { type: "pass" });
      await waitRoom(watcher, (r) => r.clues.length > before || r.phase !== "describing" || r.turn !== room.turn);
      continue;
    }
    if (room && room.phase === "guessing" && guess) {
      guess();
      await waitRoom(watcher, (r) => r.phase !== "guessing");
      continue;
    }
    if (room && room.phase === "voting") {
      const voted = votedNow(watcher);
      const voters = room.seats.filter((s) => s.alive && !voted.has(s.id) && players[s.id]);
      const pk = room.pk.length > 0;
      const mine = voters.filter((s) => !pk || !room.pk.includes(s.id));
      if (mine.length > 0) {
        const seat = mine[0];
        const candidates = (pk ? room.pk : room.seats.filter((s) => s.alive).map((s) => s.id)).filter((id) => id !== seat.id);
        players[seat.id].send({ type: "vote", target: choose(seat.id, candidates, room) });
        await watcher.next((m) => m.type === "vote_progress" || m.type === "vote_result" || m.type === "room", "vote news");
        await pause(30);
        continue;
      }
    }
    await pause(20);
  }
}

/** Who has voted in the vote now open, by the latest `vote_progress` (no room snapshot follows one). */
function votedNow(conn) {
  for (let i = conn.received.length - 1; i >= 0; i--) {
    const m = conn.received[i];
    if (m.type === "vote_progress") return new Set(m.voted);
    if (m.type === "voting" || m.type === "vote_result") return new Set();
  }
  return new Set();
}

function waitRoom(conn, test, what = "a room snapshot") {
  const latest = conn.room;
  if (latest && test(latest)) return latest;
  return conn.next((m) => m.type === "room" && test(m), what);
}

const scenarios = {
  // One player and three bots, typed clues, a board beside them: settings refused and taken, a clue refused for
  // holding the word, a dropped connection resumed mid-vote (its ballot comes back), a ping, a whole game, a new
  // room opened and left, and the host closing.
  async "typed-bots"() {
    const host = new Host(["--bots", "3", "--clues", "typed", "--seed", "7", "--bot-delay-ms", "30", "--ping-seconds", "3", "--idle-seconds", "60"]);
    const board = await host.open("board", hello("", { watch: true }));
    await board.type("room");
    const amy = await host.open("amy", hello("Amy"));
    const welcome = await amy.type("welcome");
    await amy.type("room");
    amy.send({ type: "settings", settings: { spies: 4 } });
    await amy.type("error");
    amy.send({ type: "settings", settings: { turnSeconds: 60 } });
    await waitRoom(amy, (r) => r.settings.turnSeconds === 60);
    amy.send({ type: "ping", id: 1 });
    await amy.type("pong");
    amy.send({ type: "start" });
    const deal = await amy.type("deal");
    // Typed turns until Amy's: first a clue with her own word, then a real one.
    let refused = false;
    let resumed = false;
    let conn = amy;
    const until = Date.now() + 120000;
    for (;;) {
      if (Date.now() > until) throw new Error("the game did not end");
      const room = conn.room;
      if (room.phase === "gameOver") break;
      if (room.phase === "describing" && room.turn === welcome.you) {
        if (!refused && deal.word) {
          conn.send({ type: "clue", text: `像${deal.word}一樣` });
          await conn.type("error");
          refused = true;
        }
        conn.send({ type: "clue", text: "早上會用到" });
        await waitRoom(conn, (r) => r.turn !== welcome.you || r.phase !== "describing");
        continue;
      }
      if (room.phase === "voting" && room.seats.find((s) => s.id === welcome.you && s.alive && !s.voted)) {
        const target = room.seats.find((s) => s.alive && s.id !== welcome.you && (room.pk.length === 0 || room.pk.includes(s.id)));
        if (room.pk.length > 0 && room.pk.includes(welcome.you)) {
          await pause(20);
          continue;
        }
        conn.send({ type: "vote", target: target.id });
        await conn.next((m) => m.type === "vote_progress" || m.type === "vote_result", "vote news");
        if (!resumed) {
          // The connection drops with the ballot in; a new one resumes with the token.
          conn.drop();
          conn = await host.open("amy-2", hello("Amy", { token: welcome.token }));
          await conn.type("welcome");
          resumed = true;
        }
        await pause(30);
        continue;
      }
      await pause(20);
    }
    await conn.type("game_over");
    await pause(3500); // the host's ping after its silence
    conn.send({ type: "leave" });
    await conn.type("bye");
    await conn.waitClosed();
    const opener = await host.open("opener", hello("Zoe", { create: true }));
    await opener.type("welcome");
    await opener.type("room");
    const back = await host.open("amy-3", hello("Amy", { token: welcome.token }));
    await back.waitClosed();
    await host.stop();
    await pause(100);
    host.write("typed-bots.jsonl");
  },

  // Four people and a bot, spoken clues: a second connection takes a seat (replaced), a seat taken back on another
  // phone (refused, then allowed; the old token expired), a game played out, the owner away at game over hands the
  // room over, the next game deals the away seat out, the former owner comes back, and a kick.
  async party() {
    const host = new Host(["--bots", "1", "--seed", "11", "--bot-delay-ms", "30"]);
    const board = await host.open("board", hello("", { watch: true }));
    await board.type("room");
    const names = ["Olive", "Amy", "Ben", "Cleo"];
    const conns = {};
    const ids = {};
    const tokens = {};
    for (const name of names) {
      const conn = await host.open(name.toLowerCase(), hello(name));
      const welcome = await conn.type("welcome");
      await conn.type("room");
      conns[name] = conn;
      ids[name] = welcome.you;
      tokens[name] = welcome.token;
    }
    await waitRoom(board, (r) => r.seats.length === 5);
    // Amy's seat is taken by another tab of hers; then back.
    const amy2 = await host.open("amy-tab2", hello("Amy", { token: tokens.Amy }));
    await amy2.type("welcome");
    await conns.Amy.waitClosed();
    conns.Amy = amy2;
    conns.Olive.send({ type: "start" });
    for (const name of names) await conns[name].type("deal");
    // Cleo's phone is lost.
    conns.Cleo.drop();
    await waitRoom(board, (r) => r.seats.some((s) => s.id === ids.Cleo && !s.connected));
    const phone = await host.open("cleo-phone", hello("Cleo"));
    await phone.type("claim_pending");
    const asked = await conns.Olive.type("claim");
    conns.Olive.send({ type: "claim_answer", player: asked.player, allow: false });
    await phone.type("error");
    await conns.Olive.type("claim_done");
    const late = await host.open("cleo-late", hello("Cleo B"));
    await late.type("error");
    const phone2 = await host.open("cleo-phone-2", hello("Cleo B", { claim: ids.Cleo }));
    await phone2.type("claim_pending");
    const again = await conns.Olive.type("claim");
    conns.Olive.send({ type: "claim_answer", player: again.player, allow: true });
    const claimed = await phone2.type("welcome");
    await phone2.type("deal");
    await conns.Olive.type("claim_done");
    conns.Cleo = phone2;
    // The lost phone comes back with the token the claim replaced.
    const old = await host.open("cleo-old", hello("Cleo", { token: tokens.Cleo }));
    await old.waitClosed();
    tokens.Cleo = claimed.token;
    const players = Object.fromEntries(names.map((name) => [ids[name], conns[name]]));
    const bot = board.room.seats.find((s) => s.bot).id;
    await playToGameOver(players, board, { choose: (_, candidates) => (candidates.includes(bot) ? bot : candidates[0]) });
    for (const name of names) await conns[name].type("game_over");
    // The owner's tab is lost at game over: after 30 s away the room is handed over.
    conns.Olive.drop();
    const change = await conns.Amy.next((m) => m.type === "owner", "the owner hand-over", 45000);
    await waitRoom(board, (r) => r.seats.some((s) => s.id === change.player && s.owner));
    const owner = names.find((name) => ids[name] === change.player);
    conns[owner].send({ type: "start" });
    await conns[owner].type("deal");
    await waitRoom(board, (r) => r.game === 2);
    const olive = await host.open("olive-back", hello("Olive", { token: tokens.Olive }));
    await olive.type("welcome");
    await waitRoom(olive, (r) => r.seats.some((s) => s.id === ids.Olive && s.connected));
    conns[owner].send({ type: "kick", player: ids.Ben });
    await conns.Ben.type("error");
    await waitRoom(board, (r) => !r.seats.some((s) => s.id === ids.Ben && s.connected));
    await pause(200);
    await host.stop();
    await pause(100);
    host.write("party.jsonl");
  },

  // Five people, typed clues, a blank that guesses: a start refused for too few players, a tie that goes to a PK,
  // the blank voted out and guessing, game over with the guess. One device could hold p1–p4 (pass-and-play).
  async "blank-guess"() {
    const host = new Host(["--clues", "typed", "--seed", "5"]);
    const board = await host.open("board", hello("", { watch: true }));
    await board.type("room");
    const names = ["小明", "阿華", "Amy", "老王", "Eve"];
    const conns = {};
    const ids = [];
    for (const name of names.slice(0, 4)) {
      const conn = await host.open(name, hello(name));
      const welcome = await conn.type("welcome");
      await conn.type("room");
      conns[welcome.you] = conn;
      ids.push(welcome.you);
    }
    const first = conns[ids[0]];
    first.send({ type: "settings", settings: { blank: true, blankRule: "guess", turnSeconds: 45, voteSeconds: 60 } });
    await waitRoom(first, (r) => r.settings.blank);
    first.send({ type: "start" });
    await first.type("error");
    const eve = await host.open("Eve", hello("Eve"));
    const eveWelcome = await eve.type("welcome");
    conns[eveWelcome.you] = eve;
    ids.push(eveWelcome.you);
    await waitRoom(first, (r) => r.seats.length === 5);
    first.send({ type: "start" });
    const deals = {};
    for (const id of ids) deals[id] = await conns[id].type("deal");
    const blank = ids.find((id) => deals[id].blank);
    const words = ids.filter((id) => !deals[id].blank).map((id) => deals[id].word);
    const civilianWord = words.find((word) => words.filter((w) => w === word).length > 1);
    const civilians = ids.filter((id) => deals[id].word === civilianWord);
    const spy = ids.find((id) => id !== blank && !civilians.includes(id));
    // Round 1 ties the first two civilians 2–2; the PK sends the first out; round 2 sends the blank out, who
    // guesses the civilians' word.
    const [a, b, c] = civilians;
    const firstRound = { [a]: b, [b]: a, [c]: a, [spy]: b, [blank]: c };
    await playToGameOver(conns, board, {
      clue: (id) => `線索${id}`,
      choose: (voter, candidates, room) => {
        if (room.pk.length > 0) return a;
        if (room.round === 1) return firstRound[voter];
        return voter === blank ? candidates[0] : blank;
      },
      guess: () => conns[blank].send({ type: "guess", word: civilianWord }),
    });
    await pause(200);
    await host.stop();
    await pause(100);
    host.write("blank-guess.jsonl");
  },

  // A moderator (法官) runs a typed game with a blank for five people: the owner names Amy, who declines, then
  // accepts; she types the pair, starts, pauses and resumes, passes the turn of a speaker who dropped (who comes
  // back), sees every ballot and the blank's guess; at game over she kicks a player and gives the seat up, and the
  // owner takes it herself.
  async moderator() {
    const host = new Host(["--clues", "typed", "--seed", "9"]);
    const board = await host.open("board", hello("", { watch: true }));
    await board.type("room");
    const names = ["Olive", "Amy", "Ben", "Cleo", "Dan", "Eve"];
    const conns = {};
    const ids = {};
    const tokens = {};
    for (const name of names) {
      const conn = await host.open(name.toLowerCase(), hello(name));
      const welcome = await conn.type("welcome");
      await conn.type("room");
      conns[name] = conn;
      ids[name] = welcome.you;
      tokens[name] = welcome.token;
    }
    await waitRoom(board, (r) => r.seats.length === 6);
    const olive = conns.Olive;
    olive.send({ type: "settings", settings: { blank: true, blankRule: "guess" } });
    await waitRoom(olive, (r) => r.settings.blank);
    olive.send({ type: "moderator", player: ids.Amy });
    await conns.Amy.type("moderator_offer");
    conns.Amy.send({ type: "moderator_answer", accept: false });
    await olive.type("moderator_declined");
    olive.send({ type: "moderator", player: ids.Amy });
    await conns.Amy.type("moderator_offer");
    conns.Amy.send({ type: "moderator_answer", accept: true });
    await board.type("moderator");
    const amy = conns.Amy;
    await amy.type("moderator_view");
    amy.send({ type: "moderator_pair", civilian: "婚紗", spy: "禮服" });
    await amy.type("moderator_view", (m) => m.nextPair);
    amy.send({ type: "start" });
    const players = names.filter((name) => name !== "Amy");
    const deals = {};
    for (const name of players) deals[name] = await conns[name].type("deal");
    await amy.type("moderator_view", (m) => m.players.length === 5);
    amy.send({ type: "pause" });
    await waitRoom(board, (r) => r.paused === true);
    amy.send({ type: "resume" });
    await waitRoom(board, (r) => r.paused !== true);
    // The moderator's phone drops and comes back: the view again, and still no deal.
    amy.drop();
    await waitRoom(board, (r) => r.seats.some((s) => s.id === ids.Amy && !s.connected));
    const amyBack = await host.open("amy-2", hello("Amy", { token: tokens.Amy }));
    await amyBack.type("welcome");
    await amyBack.type("moderator_view", (m) => m.players.length === 5);
    conns.Amy = amyBack;
    // The first speaker's phone drops; the moderator passes the turn; the phone comes back.
    const first = board.room.turn;
    const speaker = players.find((name) => ids[name] === first);
    conns[speaker].drop();
    await waitRoom(board, (r) => r.seats.some((s) => s.id === first && !s.connected));
    conns.Amy.send({ type: "pass_turn" });
    await waitRoom(board, (r) => r.turn !== first || r.phase !== "describing");
    conns[speaker] = await host.open(`${speaker.toLowerCase()}-2`, hello(speaker, { token: tokens[speaker] }));
    await conns[speaker].type("welcome");
    await waitRoom(board, (r) => r.seats.some((s) => s.id === first && s.connected));
    const blank = players.find((name) => deals[name].blank);
    const spy = players.find((name) => !deals[name].blank && players.filter((other) => deals[other].word === deals[name].word).length === 1);
    const byId = Object.fromEntries(players.map((name) => [ids[name], conns[name]]));
    await playToGameOver(byId, board, {
      clue: (id) => `線索${id}`,
      choose: (voter, candidates, room) => {
        const target = room.round === 1 ? ids[blank] : ids[spy];
        return candidates.includes(target) ? target : candidates[0];
      },
      guess: () => conns[blank].send({ type: "guess", word: "西裝" }),
    });
    await conns.Amy.type("game_over");
    conns.Amy.send({ type: "kick", player: ids.Dan });
    await conns.Dan.type("error");
    await waitRoom(board, (r) => !r.seats.some((s) => s.id === ids.Dan));
    conns.Amy.send({ type: "moderator" });
    await board.type("moderator", (m) => !m.player);
    conns.Olive.send({ type: "moderator", player: ids.Olive });
    await board.type("moderator", (m) => m.player === ids.Olive);
    await conns.Olive.type("moderator_view");
    await pause(200);
    await host.stop();
    await pause(100);
    host.write("moderator.jsonl");
  },
};

for (const [name, scenario] of Object.entries(scenarios)) {
  if (wanted.size > 0 && !wanted.has(name)) continue;
  await scenario();
}
