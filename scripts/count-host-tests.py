#!/usr/bin/env python3
"""Counts the host's tests by how they reach the host: on its core in the test's own process (no socket, a clock
the test moves), or over real sockets and processes. Run from the package root: python3 scripts/count-host-tests.py

Each test function counts once, however many arguments it runs with. A test reaches the host in-process when it
builds an `EmbeddedHost` or a `CoreHost`; over sockets when it builds an `InProcessHost`, a `DaemonProcess`, a
`FrameClient`, a browser run, or starts the `spyd` binary. Socket tests tagged `.shell` test what only the shell
does (accepting, flushing, closing, WebSocket and HTTP framing, discovery, start, exit, signals, kill -9, the disk)
and are not rule tests; `.endToEnd` games are. Tests that reach no host (option parsing, pure units) are left out.
With --list, every counted test is printed with its class."""
import glob
import re
import sys

IN_PROCESS = re.compile(r"\b(EmbeddedHost|CoreHost)\(")
SOCKETS = re.compile(
    r"\b(InProcessHost|DaemonProcess|FrameClient|WebSocketTestClient|PseudoTerminal|DrawnBanner|BrowserRun)\b"
    r"|SpydRun\.|\.binary\b")


def tests(path):
    text = open(path, encoding="utf-8").read()
    found = list(re.finditer(r"@Test\b(.*?)func (\w+)", text, re.S))
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        yield match.group(2), match.group(1), text[match.start():end]


counts = {"in-process": 0, "sockets": 0, "shell": 0}
listing = []
for path in sorted(glob.glob("Tests/SpyHostTests/*.swift") + glob.glob("Tests/spydTests/*.swift")):
    for name, traits, body in tests(path):
        if ".shell" in traits:
            kind = "shell"
        elif ".endToEnd" in traits or (SOCKETS.search(body) and not IN_PROCESS.search(body)):
            kind = "sockets"
        elif IN_PROCESS.search(body):
            kind = "in-process"
        else:
            continue
        counts[kind] += 1
        listing.append(f"{kind:10} {path}: {name}")
if "--list" in sys.argv:
    print("\n".join(listing))
rules = counts["in-process"] + counts["sockets"]
print(f"host rule tests: {rules}; in-process: {counts['in-process']} "
      f"({100 * counts['in-process'] / max(rules, 1):.0f} %), over sockets: {counts['sockets']}; "
      f"shell-only tests over sockets: {counts['shell']}")
