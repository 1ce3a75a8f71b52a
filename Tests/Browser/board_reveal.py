"""The board at the moments the room looks up: five people at a spoken table, played over the host's TCP protocol
from this script, and the board in a browser at 1920×1080 in Traditional Chinese.

Against `spyd --host` (no bots). Before anyone joins, the board says how to join and shows no seat list. The first
vote ties 2–2: the tie is the largest thing on the board until the PK's first description; during the PK vote the
board names the candidates (not the voters) and keeps the tied vote in view. The PK puts a civilian out: the name
and the role, larger than anything else, across two columns, until the next round's first description. The second
vote puts the spy out: at game over the board shows the vote that decided it, and the evening's games. The owner
leaves: the board says who runs the room now, and why. Throughout, the columns keep their widths and the board
names who is still to vote, with the full-width colon of Chinese; spoken turns are not a line each.
"""

import json
import socket
import struct
import threading
import time

import board_tv
import spybrowser as sb
from selenium.webdriver.common.by import By

TV = board_tv.TV
NAMES = ["Amy", "Ben", "小明", "Dee", "阿華"]
# The pairs' languages as the board names them in 繁體中文.
LANGUAGES = {"zh-TW": "繁體中文", "zh-Hans": "簡體中文", "en": "英文", "both": "繁體中文和英文", "zh-Hans+en": "簡體中文和英文"}


class Player:
    """A player over the host's own protocol (TCP, 4-byte big-endian length, JSON): what it was sent, kept in
    order, with pings answered."""

    def __init__(self, port, name):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.settimeout(None)
        self.name = name
        self.received = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.send({"type": "hello", "protocol": 1, "name": name})
        self.id = self.wait_for(lambda m: m["type"] == "welcome", "welcome")["you"]

    def send(self, message):
        data = json.dumps(message).encode()
        self.sock.sendall(struct.pack(">I", len(data)) + data)

    def read(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while len(buffer) >= 4:
                size = struct.unpack(">I", buffer[:4])[0]
                if len(buffer) < 4 + size:
                    break
                message = json.loads(buffer[4 : 4 + size])
                buffer = buffer[4 + size :]
                if message.get("type") == "ping":
                    self.send({"type": "pong", "id": message.get("id")})
                with self.changed:
                    self.received.append(message)
                    self.changed.notify_all()

    def wait_for(self, predicate, what, after=0):
        """The first message from index `after` on that `predicate` accepts; fails after the deadline."""
        deadline = time.monotonic() + sb.DEADLINE
        with self.changed:
            while True:
                for message in self.received[after:]:
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                sb.check(left > 0, f"{self.name} waited {sb.DEADLINE:.0f} s for {what}")
                self.changed.wait(left)

    def last_room(self):
        with self.changed:
            rooms = [m for m in self.received if m["type"] == "room"]
        return rooms[-1] if rooms else None

    def close(self):
        self.sock.close()


def board_room(browser):
    return browser.execute_script("return board.room")


def layout(browser):
    """The left and right edges of the seats, the now card and the corner: the columns must not move between
    phases."""
    return browser.execute_script(
        "return ['seats-card', 'now-card', 'join-heading'].map((id) => {"
        " const card = document.getElementById(id).closest('.card').getBoundingClientRect();"
        " return [Math.round(card.left), Math.round(card.right)]; })"
    )


LARGEST = """
const shown = (node) => node.getClientRects().length > 0 && !node.closest("[hidden]");
const target = document.querySelector(arguments[0]);
const mine = parseFloat(getComputedStyle(target).fontSize);
const larger = [];
for (const node of document.querySelectorAll("body *")) {
  if (!shown(node) || node === target || target.contains(node) || node.contains(target)) continue;
  const own = [...node.childNodes].some((child) => child.nodeType === 3 && child.data.trim());
  if (!own) continue;
  const size = parseFloat(getComputedStyle(node).fontSize);
  if (size >= mine) larger.push(`${node.id || node.className}: ${size}px`);
}
const cards = [...document.querySelectorAll(".board-grid > .card")].filter(shown)
  .map((card) => { const r = card.getBoundingClientRect(); return [card.id || card.className, r.width * r.height]; })
  .sort((a, b) => b[1] - a[1]);
const r = target.getBoundingClientRect();
return { size: mine, larger, biggestCard: cards[0][0], onScreen: r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth };
"""


def check_largest(browser, where):
    found = browser.execute_script(LARGEST, "#vote-card .vote-name")
    sb.check(not found["larger"], f"{where}: text as large as the result's {found['size']}px: {found['larger']}")
    sb.check(found["biggestCard"] == "vote-card", f"{where}: the largest card is {found['biggestCard']}")
    sb.check(found["onScreen"], f"{where}: the result is on screen")
    sb.check(found["size"] >= 0.12 * TV[1], f"{where}: the result's name is {found['size']}px at 1080p")


def play(args):
    browser = sb.launch(TV, "zh-TW")
    players = []
    try:
        run(browser, players, args)
    finally:
        for player in players:
            player.close()
        browser.quit()


def run(browser, players, args):
    port = int(args.url.rsplit(":", 1)[1])
    browser.get(args.url + "/board")
    sb.wait(browser, lambda b: sb.text_of(b, "room-code") and board_room(b), "the board's room")
    # Nobody here yet: how to join, and no empty seat list.
    sb.wait(browser, lambda b: sb.text_of(b, "now").startswith("還沒有人加入："), "the board says how to join")
    sb.check(not sb.visible(browser, "seats-card"), "no seat list before anyone joins")
    board_tv.tv_screenshot(browser, args, "board-empty-tv.png")

    for name in NAMES:
        players.append(Player(port, name))
    amy = players[0]
    by_id = {p.id: p for p in players}
    sb.wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#seats li")) == 5, "five seats on the board")
    sb.wait(browser, lambda b: sb.text_of(b, "now") == "等房主開始遊戲", "an owner: the board waits for the start")
    settings = sb.text_of(browser, "board-settings")
    language = LANGUAGES[board_room(browser)["settings"]["language"]]
    sb.check(settings.startswith(f"詞語：{language} · "), f"the settings summary names the pairs' language: {settings!r}")

    amy.send({"type": "start"})
    deals = {p.id: p.wait_for(lambda m: m["type"] == "deal", "the deal") for p in players}
    words = [d.get("word") for d in deals.values()]
    spy = next(pid for pid, d in deals.items() if words.count(d.get("word")) == 1)
    civilians = [pid for pid in deals if pid != spy]
    x, y = civilians[0], civilians[1]
    others = [pid for pid in deals if pid not in (x, y)]
    names = {p.id: p.name for p in players}

    cursor = [0]

    def describe_round(first_clue_check=None):
        """Every speaker of the round passes (spoken: "done"), in the host's order, until the vote opens."""
        spoken = 0
        while True:
            message = amy.wait_for(lambda m: m["type"] in ("turn", "voting"), "a turn or the vote", cursor[0])
            cursor[0] = amy.received.index(message, cursor[0]) + 1
            if message["type"] == "voting":
                return message, spoken
            by_id[message["player"]].send({"type": "pass"})
            spoken += 1
            if spoken == 1 and first_clue_check:
                first_clue_check()

    def wait_phase(phase, what):
        sb.wait(browser, lambda b: (board_room(b) or {}).get("phase") == phase, what)

    columns = []
    describe_round()
    wait_phase("voting", "the first vote on the board")
    columns.append(("voting", layout(browser)))
    texts = browser.execute_script("return [...document.querySelectorAll('#clues li')].map((li) => li.innerText)")
    sb.check(not any("（口述）" in t for t in texts), f"no '（口述）' line per turn: {texts}")
    sb.check(any(t.startswith("描述過：") for t in texts), f"the spoken turns as one line: {texts}")

    # A 2–2 tie between two civilians (and one vote elsewhere); the board names who is still to vote, by name.
    ballots = {x: y, y: x, others[0]: x, others[1]: y, others[2]: others[0]}
    voters = list(ballots)
    for voter in voters[:2]:
        by_id[voter].send({"type": "vote", "target": ballots[voter]})
    waiting_names = sorted(names[v] for v in voters[2:])
    sb.wait(
        browser,
        lambda b: sb.text_of(b, "now-detail").startswith("還沒投票：")
        and sorted(sb.text_of(b, "now-detail")[5:].split("、")) == waiting_names,
        f"the board names who is still to vote ({waiting_names})",
    )
    sb.check("其他人" not in sb.text_of(browser, "now-detail"), "no 'the others' on a TV")
    for voter in voters[2:]:
        by_id[voter].send({"type": "vote", "target": ballots[voter]})

    # The tie: across the screen, the largest thing, until the PK's first description.
    sb.wait(browser, lambda b: sb.visible(b, "vote-card"), "the tie on the board")
    tied = "、".join(names[p] for p in sorted((x, y), key=lambda p: list(names).index(p)))
    sb.check(sb.text_at(browser, "#vote-card .vote-name") == tied, f"the tied players: {tied}")
    check_largest(browser, "the tie")
    columns.append(("tie", layout(browser)))

    def pk_clue_hides_the_tie():
        sb.wait(browser, lambda b: not sb.visible(b, "vote-card"), "the tie gives way at the PK's first description")
        sb.wait(browser, lambda b: sb.visible(b, "result"), "the tied vote still in view")
        sb.check(sb.text_at(browser, "#result .vote-heading") == "平票的那一輪投票", "named as the tied vote")
        columns.append(("PK describing", layout(browser)))

    pk_vote, _ = describe_round(pk_clue_hides_the_tie)
    wait_phase("voting", "the PK vote on the board")
    sb.wait(browser, lambda b: sb.text_of(b, "now").startswith("PK 投票："), "the PK vote")
    now = sb.text_of(browser, "now")
    for candidate in pk_vote["candidates"]:
        sb.check(names[candidate] in now, f"the PK vote names candidate {names[candidate]}: {now!r}")
    for voter in pk_vote["voters"]:
        sb.check(names[voter] not in now, f"the PK vote does not list voter {names[voter]}: {now!r}")
    sb.check(sb.visible(browser, "result"), "the first tally in view during the PK vote")
    tally = browser.execute_script("return document.querySelectorAll('#result .tally-lines li').length")
    sb.check(tally == 3, f"the tied vote's tally, three lines: {tally}")
    texts = browser.execute_script("return [...document.querySelectorAll('#clues li')].map((li) => li.innerText)")
    sb.check("PK" in texts, f"the PK's re-descriptions marked: {texts}")
    columns.append(("pk vote", layout(browser)))
    for voter in pk_vote["voters"]:
        by_id[voter].send({"type": "vote", "target": x})

    # A civilian out: who and who they were, the largest thing, across two columns.
    sb.wait(browser, lambda b: sb.visible(b, "vote-card") and sb.text_at(b, "#vote-card .vote-name") == names[x], "X out")
    verdict = sb.text_at(browser, "#vote-card .vote-verdict")
    sb.check(verdict == "出局 · 身分是平民", f"the verdict names the role: {verdict!r}")
    check_largest(browser, "a civilian out")
    board_tv.measure(browser, "the reveal", sizes=(TV,))
    columns.append(("reveal", layout(browser)))
    board_tv.tv_screenshot(browser, args, "board-reveal-tv.png")

    def next_round_hides_it():
        sb.wait(browser, lambda b: not sb.visible(b, "vote-card"), "the result gives way at round 2's first description")

    describe_round(next_round_hides_it)
    wait_phase("voting", "round 2's vote")
    columns.append(("round 2 vote", layout(browser)))
    alive = [pid for pid in deals if pid != x]
    for voter in alive:
        target = spy if voter != spy else next(pid for pid in alive if pid != spy)
        by_id[voter].send({"type": "vote", "target": target})

    # Game over: the vote that decided it, and the evening's games.
    wait_phase("gameOver", "game over on the board")
    sb.wait(browser, lambda b: sb.visible(b, "deciding"), "the deciding vote at game over")
    sb.check(sb.text_at(browser, "#deciding .vote-name") == names[spy], "the deciding vote names the spy")
    sb.check("臥底" in sb.text_at(browser, "#deciding .vote-verdict"), "and who they were")
    sb.wait(browser, lambda b: sb.visible(b, "evening-card"), "the evening's games")
    record = sb.text_at(browser, "#evening-games li")
    sb.check(record.startswith("第1局 · 平民獲勝！"), f"game 1 and its winner: {record!r}")
    sb.check(f"第1輪 {names[x]}（PK 投票）" in record and f"第2輪 {names[spy]}（投票）" in record, f"who went out when: {record!r}")
    board_tv.measure(browser, "game over", sizes=(TV,))
    columns.append(("game over", layout(browser)))
    board_tv.tv_screenshot(browser, args, "board-deciding-tv.png")

    first = columns[0][1]
    for where, at in columns:
        sb.check(at == first, f"the columns keep their place: {where} {at} vs {first}")

    # The owner leaves: the board says who runs the room now, and why.
    ben = players[1]
    seen = len(ben.received)
    amy.send({"type": "leave"})
    change = ben.wait_for(lambda m: m["type"] == "owner", "the room's new owner", seen)
    reasons = {"away": "離開太久了", "left": "離開了房間"}
    expected = (
        f"{names[change['player']]} 現在是房主——Amy {reasons[change['reason']]}"
        if change.get("reason") in reasons
        else f"{names[change['player']]} 接替 Amy 當房主"
    )
    sb.check(change.get("reason") == "left", f"the host says why the room changed hands: {change}")
    sb.wait(browser, lambda b: sb.visible(b, "owner-news"), "the hand-over on the board")
    sb.check(sb.text_of(browser, "owner-news") == expected, f"{sb.text_of(browser, 'owner-news')!r} is {expected!r}")
    board_tv.measure(browser, "the hand-over", sizes=(TV,))
    board_tv.tv_screenshot(browser, args, "board-owner-tv.png")
    sb.check_console(browser)


if __name__ == "__main__":
    sb.main(play)
