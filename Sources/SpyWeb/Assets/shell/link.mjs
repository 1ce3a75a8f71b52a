// The link of one seat to the host: a WebSocket at /ws carrying one protocol message per text frame. It is the
// shell around the reducer: it says hello (the model says which), answers pings, finds a dead link, tries again,
// and reports everything that arrives, and its own news (`connected`, `reconnecting`, `closed`), as messages.

// Errors after which the host has closed the connection and trying again the same way cannot help.
export const FINAL_ERRORS = new Set([
  "protocol_version",
  "hello_required",
  "room_not_found",
  "room_required",
  "room_full",
  "game_in_progress",
  "name_taken",
  "bad_name",
  "wrong_password",
  "bad_token",
  "too_many_rooms",
  "replaced",
  "kicked",
  "claim_invalid",
  "claim_unavailable",
  "claim_busy",
  "claim_refused",
]);

/**
 * The pause before the `attempt`th try (1, 2, …): 0.25 s doubling to at most 1.5 s. A try at a host that is down
 * costs one refused connection on the LAN, so the pause stays short: a host that listens again is found within
 * 1.5 s, however long it was down.
 */
export function retryPause(attempt) {
  return Math.min(1500, 250 * 2 ** Math.min(Math.max(attempt, 1) - 1, 3));
}

/**
 * One player's (or watcher's) link to the host over the WebSocket at /ws: one protocol message per text frame.
 *
 * It says hello on every (re)connection, answers the host's pings, pings every 15 s to find a dead link, and when
 * the link drops tries again with a growing pause (`retryPause`) for five minutes, the time the host keeps a seat.
 * It stops for good after `bye` `left`/`room_closed` and after errors that a retry cannot fix.
 */
export class HostLink {
  constructor({ hello, onMessage, onStatus }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.status = "idle";
    this.attempt = 0;
    this.droppedAt = 0;
    this.stopped = true;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.lastHeard = 0;
    this.pingId = 0;
    document.addEventListener("visibilitychange", () => {
      // A phone that was locked comes back: try at once rather than after the pause.
      if (document.visibilityState === "visible" && !this.stopped && this.status === "reconnecting") {
        this.connectNow();
      }
    });
    window.addEventListener("online", () => {
      if (!this.stopped && this.status === "reconnecting") this.connectNow();
    });
    // A page left for another (and kept by the browser to come back to) lets its seat show as away at once, and
    // takes it back when shown again.
    window.addEventListener("pagehide", (event) => {
      if (event.persisted && !this.stopped) {
        clearTimeout(this.retryTimer);
        clearInterval(this.pingTimer);
        this.detach();
      }
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && !this.stopped) this.connectNow();
    });
  }

  get url() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }

  start() {
    this.stopped = false;
    this.attempt = 0;
    this.droppedAt = 0;
    this.setStatus("connecting");
    this.connectNow();
  }

  /** Ends the link and tries no more. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.detach();
    this.setStatus("closed");
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status, this.attempt);
  }

  detach() {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close();
    } catch (_) {
      // Already closed.
    }
  }

  connectNow() {
    clearTimeout(this.retryTimer);
    this.detach();
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (_) {
      this.dropped();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.lastHeard = performance.now();
      socket.send(JSON.stringify(this.hello()));
    };
    socket.onmessage = (event) => {
      this.lastHeard = performance.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (!message || typeof message.type !== "string") return;
      if (message.type === "ping") {
        this.send({ type: "pong", id: message.id });
        return;
      }
      // A watcher's first message may be its room snapshot; either means the host took the hello.
      if (message.type === "welcome" || (message.type === "room" && this.status !== "connected")) {
        this.attempt = 0;
        this.droppedAt = 0;
        this.setStatus("connected");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.heartbeat(), 15000);
      }
      if (message.type === "error" && FINAL_ERRORS.has(message.code)) this.stopped = true;
      if (message.type === "bye" && message.reason !== "host_closing") this.stopped = true;
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.dropped();
    };
  }

  heartbeat() {
    if (!this.socket) return;
    if (performance.now() - this.lastHeard > 45000) {
      // Nothing for three pings: the link is dead even if the browser has not noticed.
      this.detach();
      this.dropped();
      return;
    }
    this.pingId += 1;
    this.send({ type: "ping", id: this.pingId });
  }

  dropped() {
    clearInterval(this.pingTimer);
    if (this.stopped) {
      this.setStatus("closed");
      return;
    }
    const now = performance.now();
    if (this.droppedAt === 0) this.droppedAt = now;
    if (now - this.droppedAt > 5 * 60 * 1000) {
      this.stopped = true;
      this.setStatus("closed");
      return;
    }
    this.attempt += 1;
    const pause = retryPause(this.attempt);
    this.status = "";
    this.setStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connectNow(), pause);
  }
}
