#!/usr/bin/env python3
"""Loads a spyd on 127.0.0.1 through its web and discovery surfaces while a player pings it.

Starts the given spyd on a free loopback port (no state, caps lifted), then runs one mode:

  head       Sends one request head of --lines header lines (`Host` and `a:`) at a time and reports how long the host
             takes to answer it (send to close), over --repeat heads.
  heads      Keeps --in-flight such heads in flight for --seconds (each answered head is sent again on a new
             connection, at once or at --heads-per-second) while a seated player pings every 10 ms; reports the
             ping's p50/p99/max and the host's CPU.
  discovery  Opens --rooms rooms (the first at start, the others by clients that stay seated), then floods
             discovery probes from 100 loopback addresses at --probes-per-second for --seconds while the player
             pings; reports the ping, the answers received and the host's CPU time per second.

Traffic goes to 127.0.0.0/8 only. Figures and commands are in docs/PERFORMANCE.md.
"""

import argparse
import json
import os
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import time

PROBE = b"SPYDISC?" + bytes([1]) + bytes(1_200 - 9)


def start_spyd(path, extra):
    directory = tempfile.mkdtemp(prefix="web-load-")
    port_file = os.path.join(directory, "port")
    arguments = [path, "--host", "--bind", "127.0.0.1", "--port", "0", "--port-file", port_file, "--no-state",
                 "--no-qr", "--log-level", "error", "--max-per-address", "0", "--max-rooms", "2100",
                 "--max-rooms-per-address", "0", "--rooms-per-minute", "0"] + extra
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with open(port_file) as handle:
                text = handle.read().strip()
            if text:
                return process, int(text)
        except FileNotFoundError:
            pass
        time.sleep(0.01)
    process.kill()
    sys.exit("spyd did not start")


def host_cpu_seconds(pid):
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def frame(message):
    payload = json.dumps(message).encode()
    return struct.pack(">I", len(payload)) + payload


class FramedClient:
    """A blocking framed-protocol client, used until it is seated, then read from the selector loop."""

    def __init__(self, port, hello):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.sock.sendall(frame(hello))
        welcome = self.next_message(time.monotonic() + 10)
        if welcome is None or welcome.get("type") != "welcome":
            sys.exit(f"no welcome: {welcome}")
        self.sock.setblocking(False)

    def next_message(self, deadline):
        while True:
            if len(self.buffer) >= 4:
                length = struct.unpack(">I", self.buffer[:4])[0]
                if len(self.buffer) >= 4 + length:
                    payload, self.buffer = self.buffer[4:4 + length], self.buffer[4 + length:]
                    return json.loads(payload)
            self.sock.settimeout(max(0.001, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65_536)
            except socket.timeout:
                return None
            if not data:
                return None
            self.buffer += data

    def messages(self):
        """Messages already received, without waiting."""
        try:
            while True:
                data = self.sock.recv(65_536)
                if not data:
                    break
                self.buffer += data
        except BlockingIOError:
            pass
        out = []
        while len(self.buffer) >= 4:
            length = struct.unpack(">I", self.buffer[:4])[0]
            if len(self.buffer) < 4 + length:
                break
            out.append(json.loads(self.buffer[4:4 + length]))
            self.buffer = self.buffer[4 + length:]
        return out


class Pinger:
    """A seated player that pings every `interval` seconds, one ping outstanding at a time."""

    def __init__(self, port, selector, interval=0.01):
        self.client = FramedClient(port, {"type": "hello", "protocol": 1, "name": f"Pinger {os.getpid()}"})
        self.interval = interval
        self.samples = []
        self.sent_at = None
        self.next_at = time.monotonic()
        self.next_id = 1
        selector.register(self.client.sock, selectors.EVENT_READ, self)

    def tick(self, now):
        if self.sent_at is None and now >= self.next_at:
            self.sent_at = now
            self.client.sock.send(frame({"type": "ping", "id": self.next_id}))

    def readable(self, now):
        for message in self.client.messages():
            if message.get("type") == "pong" and message.get("id") == self.next_id and self.sent_at is not None:
                self.samples.append((now - self.sent_at) * 1000)
                self.sent_at = None
                self.next_id += 1
                self.next_at = now + self.interval
            elif message.get("type") == "ping":
                self.client.sock.send(frame({"type": "pong", "id": message["id"]}))

    def report(self):
        samples = sorted(self.samples)
        if not samples:
            return "no pongs"
        def rank(fraction):
            return samples[min(len(samples) - 1, max(0, int(fraction * len(samples) + 0.999999) - 1))]
        return (f"ping p50 {rank(0.5):.2f} ms, p99 {rank(0.99):.2f} ms, max {samples[-1]:.2f} ms "
                f"({len(samples)} pings)")


def head_bytes(port, lines):
    # Lines end with a bare LF, as the host accepts: 2,700 lines stay under the 8 KiB cap on a head.
    return (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode() + b"a:\n" * (lines - 1) + b"\n")


def mode_head(args, port):
    head = head_bytes(port, args.lines)
    times = []
    statuses = set()
    for _ in range(args.repeat):
        sock = socket.create_connection(("127.0.0.1", port))
        started = time.monotonic()
        sock.sendall(head)
        reply = b""
        while True:
            data = sock.recv(65_536)
            if not data:
                break
            reply += data
        times.append((time.monotonic() - started) * 1000)
        statuses.add(reply[:12].decode(errors="replace"))
        sock.close()
    times.sort()
    print(f"head of {args.lines} header lines ({len(head)} bytes), {args.repeat} times: "
          f"median {times[len(times) // 2]:.2f} ms, min {times[0]:.2f} ms, max {times[-1]:.2f} ms; "
          f"answers: {', '.join(sorted(statuses))}")


class HeadSender:
    """One head in flight at a time: sent on a fresh connection, read until the host closes, then sent again (at
    once, or at the next slot of a shared pace)."""

    def __init__(self, port, head, selector, pace):
        self.port, self.head, self.selector, self.pace = port, head, selector, pace
        self.answered = 0
        self.sock = None
        self.due = time.monotonic()

    def connect(self):
        self.sock = socket.socket()
        self.sock.connect(("127.0.0.1", self.port))
        self.sock.setblocking(False)
        self.pending = self.head
        self.selector.register(self.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, self)

    def tick(self, now):
        if self.sock is None and now >= self.due:
            self.connect()

    def writable(self):
        try:
            sent = self.sock.send(self.pending)
            self.pending = self.pending[sent:]
        except (BlockingIOError, ConnectionError):
            pass
        if not self.pending:
            self.selector.modify(self.sock, selectors.EVENT_READ, self)

    def readable(self, now):
        try:
            data = self.sock.recv(65_536)
        except BlockingIOError:
            return
        except ConnectionError:
            data = b""
        if not data:
            self.selector.unregister(self.sock)
            self.sock.close()
            self.sock = None
            self.answered += 1
            self.due = self.pace.next_slot(now)


class Pace:
    """Slots `1/rate` s apart, handed out in turn; a rate of 0 hands out `now`."""

    def __init__(self, rate):
        self.rate, self.slot = rate, 0.0

    def next_slot(self, now):
        if self.rate <= 0:
            return now
        self.slot = max(self.slot + 1 / self.rate, now)
        return self.slot


def run_loop(selector, actors, seconds, on_tick=None):
    end = time.monotonic() + seconds
    while True:
        now = time.monotonic()
        if now >= end:
            return
        for actor in actors:
            actor.tick(now)
        if on_tick:
            on_tick(now)
        for key, events in selector.select(timeout=0.002):
            now = time.monotonic()
            if events & selectors.EVENT_WRITE and hasattr(key.data, "writable"):
                key.data.writable()
            if events & selectors.EVENT_READ:
                key.data.readable(now)


def mode_heads(args, port, process):
    selector = selectors.DefaultSelector()
    pinger = Pinger(port, selector)
    run_loop(selector, [pinger], 1)
    pinger.samples.clear()
    head = head_bytes(port, args.lines)
    pace = Pace(args.heads_per_second)
    senders = [HeadSender(port, head, selector, pace) for _ in range(args.in_flight)]
    cpu = host_cpu_seconds(process and process.pid)
    run_loop(selector, [pinger] + senders, args.seconds)
    cpu = host_cpu_seconds(process and process.pid) - cpu
    answered = sum(sender.answered for sender in senders)
    print(f"{args.in_flight} heads of {args.lines} lines in flight for {args.seconds} s: {pinger.report()}; "
          f"{answered / args.seconds:.0f} heads answered a second; host CPU {cpu / args.seconds * 100:.0f} %")


class ProbeFlood:
    def __init__(self, port, rate, selector):
        self.port, self.rate = port, rate
        self.sockets = []
        for index in range(100):
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind((f"127.0.1.{index + 1}", 0))
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, self)
            self.sockets.append(sock)
        self.sent = 0
        self.answers = 0
        self.started = None

    def tick(self, now):
        if self.started is None:
            self.started = now
        due = int((now - self.started) * self.rate)
        while self.sent < due:
            try:
                self.sockets[self.sent % len(self.sockets)].sendto(PROBE, ("127.0.0.1", self.port))
            except BlockingIOError:
                pass
            self.sent += 1

    def readable(self, now):
        for sock in self.sockets:
            try:
                while True:
                    sock.recv(2_048)
                    self.answers += 1
            except BlockingIOError:
                pass


def mode_discovery(args, port, process):
    # The first room opened at start; the others opened by clients that stay in them.
    openers = [FramedClient(port, {"type": "hello", "protocol": 1, "name": f"Opener {index}", "create": True})
               for index in range(args.rooms - 1)]
    selector = selectors.DefaultSelector()
    pinger = Pinger(port, selector)
    run_loop(selector, [pinger], 1)
    pinger.samples.clear()
    idle = host_cpu_seconds(process and process.pid)
    run_loop(selector, [pinger], args.seconds)
    idle = host_cpu_seconds(process and process.pid) - idle
    pinger.samples.clear()
    flood = ProbeFlood(port, args.probes_per_second, selector)
    cpu = host_cpu_seconds(process and process.pid)
    run_loop(selector, [pinger, flood], args.seconds)
    cpu = host_cpu_seconds(process and process.pid) - cpu
    print(f"{args.rooms} room(s), {flood.sent / args.seconds:.0f} probes a second for {args.seconds} s: "
          f"{pinger.report()}; {flood.answers / args.seconds:.0f} answers a second; host CPU "
          f"{cpu / args.seconds * 1000:.0f} ms a second ({idle / args.seconds * 1000:.0f} ms without the flood)")
    del openers


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["head", "heads", "discovery"])
    parser.add_argument("--spyd", help="the spyd binary to start")
    parser.add_argument("--port", type=int, help="load a spyd already listening on 127.0.0.1:PORT instead")
    parser.add_argument("--lines", type=int, default=2_700, help="header lines a head (default 2700)")
    parser.add_argument("--repeat", type=int, default=50, help="heads sent one after another (head)")
    parser.add_argument("--in-flight", type=int, default=60, help="heads in flight at once (heads)")
    parser.add_argument("--seconds", type=float, default=10, help="how long the load lasts")
    parser.add_argument("--heads-per-second", type=float, default=0,
                        help="resend answered heads at this pace, 0 at once (heads)")
    parser.add_argument("--rooms", type=int, default=1, help="rooms on the host (discovery)")
    parser.add_argument("--probes-per-second", type=int, default=2_000, help="discovery probes (discovery)")
    args = parser.parse_args()
    if args.port:
        process, port = None, args.port
    elif args.spyd:
        process, port = start_spyd(args.spyd, [])
    else:
        sys.exit("give --spyd PATH or --port PORT")
    try:
        if args.mode == "head":
            mode_head(args, port)
        elif args.mode == "heads":
            mode_heads(args, port, process)
        else:
            mode_discovery(args, port, process)
    finally:
        if process:
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    main()
