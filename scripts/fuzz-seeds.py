#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets under Fuzz/corpus from the protocol's own examples.

Run from the project root after the protocol or the formats change; the seeds are committed. The room-state
seeds are written by the test suite's seed writer (SPY_WRITE_FUZZ_SEEDS=1 swift test --filter SeedWriter).
"""
import hashlib
import json
import os
import re
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def write(target, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def frame(payload):
    return struct.pack(">I", len(payload)) + payload


def protocol_messages():
    """Every JSON object a client sends in docs/PROTOCOL.md (example blocks and the transcript)."""
    text = open(os.path.join(ROOT, "docs", "PROTOCOL.md"), encoding="utf-8").read()
    found = []
    for line in text.splitlines():
        match = re.search(r'(\{"type":.*\})\s*$', line)
        if not match:
            continue
        try:
            message = json.loads(match.group(1))
        except ValueError:
            continue
        found.append(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())
    return found


def frames_corpus():
    messages = protocol_messages()
    cuts = [b"\x00\x00\x00\x00", b"\x01\x02\x03\x05", b"\x3f\x3f\x3f\x3f"]
    for index, payload in enumerate(messages):
        write("frames", cuts[index % len(cuts)] + frame(payload))
    # A whole client session in one stream, and the malformed shapes the frame tests already have.
    write("frames", cuts[1] + b"".join(frame(p) for p in messages[:12]))
    for bad in [
        b"\x00\x00\x00\x00",
        b"\xff\xff\xff\xff",
        frame(b"not json"),
        frame(b"[1,2,3]"),
        frame(b'{"type":7}'),
        frame(b'{"type":"hello"}'),
        frame(b'{"type":"hello","name":"\xff\xfe","protocol":1}'),
        frame("\ufeff".encode() + b'{"type":"ping","id":1}'),
        frame(b'{"type":"vote","target":' + b"[" * 600 + b"]" * 600 + b"}"),
        frame(b'{"type":"ping","id":99999999999999999999999}'),
        frame(b'{"type":"settings","maxPlayers":1.5}'),
        frame(b'{"type":"clue","text":"' + "\u0301".encode() * 300 + b'"}'),
        struct.pack(">I", 65536) + b'{"type":"pass"}',
    ]:
        write("frames", cuts[0] + bad)


def room_corpus():
    # Seed, then ops: joins of four (one a bot), a start, settings, clues, votes, ticks.
    seed = b"\x00\x00\x00\x00\x00\x00\x00\x2a"
    joins = b"".join(b"\x00" + bytes([len(n)]) + n + b"\x00" for n in [b"Amy", b"Ben", "小明".encode(), b"Dana"])
    start = b"\x04\x00\x03"
    votes = b"\x08\x00\x01" * 4
    passes = b"\x07\x00" * 8
    ticks = b"\x0c" * 6
    write("room", seed + joins + start + passes + votes + ticks)
    write("room", seed + joins + b"\x05\x00\xff" + b"\x10" * 16 + start + b"\x06\x00\x05hello" * 4 + votes)
    write("room", b"\x01" * 8 + joins + b"\x00\x03Eve\x01" * 3 + start + ticks * 4 + b"\x03\x02" + votes)
    write("room", seed + joins + b"\x0d\x18" + b'{"type":"pass"}' + b"\x00" * 9 + start + passes)


def bank_corpus():
    write("bank", "civilian,spy,category\n牛奶,豆漿,飲料\ncoffee,tea,drinks\n貓,狗,動物\n".encode())
    write("bank", "\ufeffcivilianQuestion\tspyQuestion\r\n蘋果\t梨子\r\n\"a, \"\"b\"\"\",c\r\n".encode())
    write("bank", '[{"civilian":"牛奶","spy":"豆漿","category":"飲料"},{"civilian":"piano","spy":"guitar"}]'.encode())
    write("bank", '{"pairs":[["牛奶","豆漿"],["coffee","tea"]]}'.encode())
    write(
        "bank",
        (
            '/*O_o*/\ngoogle.visualization.Query.setResponse({"version":"0.6","status":"ok","table":{"cols":'
            '[{"id":"A","label":"civilianQuestion","type":"string"},{"id":"B","label":"spyQuestion","type":"string"}],'
            '"rows":[{"c":[{"v":"牛奶"},{"v":"豆漿"}]},{"c":[{"v":101.0,"f":"101"},{"v":"台北101"}]},{"c":[null,null]}]}});'
        ).encode(),
    )
    write(
        "bank",
        (
            '{"version":"1.0","feed":{"entry":[{"gsx$civilianquestion":{"$t":"牛奶"},"gsx$spyquestion":{"$t":"豆漿"}},'
            '{"gsx$civilianquestion":{"$t":"coffee"},"gsx$spyquestion":{"$t":"tea"}}]}}'
        ).encode(),
    )


def http_corpus():
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    upgrade = (
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:7777\r\n\r\n"
    )
    for cut, request in [
        (b"\x00", "GET / HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nAccept-Language: zh-TW\r\n\r\n"),
        (b"\x03", "HEAD /page.mjs HTTP/1.1\r\nHost: 192.168.1.5:7777\r\nIf-None-Match: W/\"x\", *\r\n\r\n"),
        (b"\x10", "GET /board?room=KFRW HTTP/1.1\nHost: h\n\n"),
        (b"\x3f", upgrade),
        (b"\x01", upgrade.replace("Origin: http://127.0.0.1:7777", "Origin: http://evil.example")),
        (b"\x02", "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"),
        (b"\x04", "GET / HTTP/1.1\r\n" + "X-Long: " + "a" * 9000 + "\r\n\r\n"),
        (b"\x05", "GET /%2e%2e/etc/passwd HTTP/1.0\r\n\r\n"),
    ]:
        write("http", cut + request.encode())


def websocket_frame(opcode, payload, fin=True, mask=b"\x01\x02\x03\x04"):
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 65536:
        head += bytes([0x80 | 126]) + struct.pack(">H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", length)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked


def websocket_corpus():
    messages = protocol_messages()
    for index, payload in enumerate(messages[:20]):
        write("websocket", bytes([index % 64]) + websocket_frame(0x1, payload))
    hello = messages[0]
    write("websocket", b"\x07" + websocket_frame(0x1, hello[:5], fin=False) + websocket_frame(0x0, hello[5:]))
    write("websocket", b"\x00" + websocket_frame(0x9, b"ping") + websocket_frame(0x1, hello))
    write("websocket", b"\x00" + websocket_frame(0x8, struct.pack(">H", 1000) + b"bye"))
    write("websocket", b"\x00" + websocket_frame(0x2, b"\x00\x01"))
    write("websocket", b"\x00" + websocket_frame(0x1, b"\xff\xfe"))
    write("websocket", b"\x00" + bytes([0x81, 0x7F]) + b"\x7f" + b"\xff" * 7 + b"\x00" * 4)
    write("websocket", b"\x00" + bytes([0x81, 0x05]) + b"hello")


if __name__ == "__main__":
    frames_corpus()
    room_corpus()
    bank_corpus()
    http_corpus()
    websocket_corpus()
