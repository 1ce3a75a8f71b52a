"""A host killed with kill -9 mid-vote and started again: what the phones and the board show, and how soon they are
back.

Starts its own spyd (--spyd, with --spyd-args) on a fixed port with a state directory, so that the same host can be
killed and started again where it was. A phone player (390×844) and three bots play a typed game; a late guest joins
during it and is told it is watching, not disconnected. At the vote the host is killed: the ballot then tapped shows
as waiting, with one connection state on the page (no red line under the header), and after eight seconds down the
host is started again. The phone, the late guest's watching link and the board (1920×1080) must each be back within
2 s of the host listening, and the waiting ballot must reach the host.
"""

import json
import time

import spybrowser as sb
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

TV = (1920, 1080)
BACK_WITHIN = 2.0
# Records when each frame arrived (the machine's wall clock, as the script's), before any page script runs.
TIMED_FRAMES = """
(() => {
  const Native = window.WebSocket;
  window.__spyTimed = [];
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener("message", (event) => {
      let type = "";
      try { type = JSON.parse(event.data).type; } catch (_) {}
      window.__spyTimed.push([Date.now(), type]);
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


def board_phone(browser):
    """The board's browser, turned into a phone-sized one for a check of the page's layout."""
    sb.set_size(browser, sb.PHONE)
    return browser


def first_after(browser, since, types):
    """When the page first received a frame of `types` after `since` (seconds), or None."""
    for stamp, kind in browser.execute_script("return window.__spyTimed || []"):
        if stamp / 1000 >= since and kind in types:
            return stamp / 1000
    return None


def play_to_the_vote(browser):
    """Plays the phone's typed turns until its own vote is open."""
    clues = iter(["早上會用到", "每天都有", "很常見", "大家都有"])
    while True:
        state = sb.wait(
            browser,
            lambda b: "vote" if sb.visible(b, "vote-list") else "clue" if sb.visible(b, "clue-form") else None,
            "my turn or the vote",
            timeout=90,
        )
        if state == "vote":
            return
        box = sb.by_id(browser, "clue-input")
        box.clear()
        box.send_keys(next(clues))
        box.send_keys(Keys.ENTER)
        sb.wait(browser, lambda b: not sb.visible(b, "clue-form") or sb.text_of(b, "notice"), "the clue taken")
        if sb.visible(browser, "clue-form"):
            sb.press(browser, sb.by_id(browser, "pass-button"))
            sb.wait(browser, lambda b: not sb.visible(b, "clue-form"), "the pass taken")


# A new owner's seat list at game over in English, drawn by the page's own view into the page's own markup: the
# owner's row carries the most badges (★ owner, you, a role, the score), the others a kick button each.
NEW_OWNER_SEATS = r"""
const done = arguments[arguments.length - 1];
Promise.all([import("/views/common.mjs"), import("/shell/dom.mjs"), import("/strings.mjs")]).then(([common, dom, strings]) => {
  const L = strings.STRINGS.en;
  document.getElementById("join").hidden = true;
  document.getElementById("game").hidden = false;
  const seat = (id, n, name, extra) => ({ id, seat: n, name, owner: false, connected: true, bot: false, alive: true,
    voted: false, score: 2, revealed: "civilian", ...extra });
  const room = { room: "KFRW", phase: "gameOver", game: 2, round: 2, pk: [], clues: [], seats: [
    seat("p1", 1, "Olivia", { connected: false }), seat("p2", 2, "Amy", { owner: true, score: 3 }),
    seat("p3", 3, "Benjamin", { alive: false, revealed: "spy", score: 0 }) ] };
  const kick = (s) => (s.id === "p2" ? null : dom.h("button", { key: "kick", type: "button", class: "kick small", text: L.kick }));
  dom.patch(document.getElementById("seats"), common.seatItems(room, "p2", L, kick));
  done([...document.querySelectorAll("#seats li")].map((li) => [li.innerText.replace(/\n/g, " "),
    new Set([...li.children].map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))).size]));
});
"""


def check_new_owner_seats_one_line(browser, url):
    """At 390 px every seat of a new owner's list is one line: its badges do not wrap under the name."""
    browser.get(url + "/?lang=en")
    sb.wait(browser, lambda b: sb.visible(b, "join-name"), "the page")
    rows = browser.execute_async_script(NEW_OWNER_SEATS)
    for text, lines in rows:
        sb.check(lines == 1, f"the seat {text!r} takes {lines} lines at 390 px")


def run(args):
    host = sb.Host(args.spyd, json.loads(args.spyd_args)).start()
    url = host.url
    phone = sb.launch(sb.PHONE, "zh-TW")
    guest = sb.launch(sb.PHONE, "zh-TW")
    board = sb.launch(TV, "zh-TW")
    try:
        for browser in (phone, guest, board):
            browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMED_FRAMES})
        me = sb.join(phone, url, "小明")
        sb.wait(phone, lambda b: sb.seat_count(b) == 4, "three bots seated")
        code = phone.execute_script("return document.getElementById('where').textContent").split(" ")[1]
        board.get(f"{url}/board?room={code}")
        sb.wait(board, lambda b: b.execute_script("return Boolean(window.board && window.board.room)"), "the board's room")
        sb.press(phone, sb.by_id(phone, "start-button"))
        sb.take_dealt_word(phone)

        # A late guest: turned away by the running game, it watches, and its header says so.
        guest.get(url + "/")
        sb.wait(guest, lambda b: sb.visible(b, "join-name"), "the guest's join form")
        sb.by_id(guest, "join-name").send_keys("阿杰")
        sb.press(guest, sb.by_id(guest, "join-button"))
        sb.wait(guest, lambda b: sb.visible(b, "watch"), "the guest watches the running game")
        sb.wait(guest, lambda b: sb.text_of(b, "link") == "觀看中：這局結束就加入", "the guest's header: watching")
        sb.check("已斷線" not in sb.text_of(guest, "link"), "the watching guest is not told it is disconnected")
        sb.check(sb.attribute_at(guest, "#link", "class") == "link link-connected", "the watching header is not red")
        # Everyone is at the table: no "That's me" button, so no hint promising one.
        sb.check(not guest.find_elements(By.CSS_SELECTOR, "#watch-seats .thats-me"), "no claim button")
        sb.check(not sb.visible(guest, "watch-claim-hint"), "no hint of a claim button that is not there")
        sb.no_horizontal_scroll(guest, "the watching guest")

        play_to_the_vote(phone)
        target = phone.find_elements(By.CSS_SELECTOR, "#vote-list button.vote")[0].get_attribute("data-player")
        name = sb.text_at(phone, f'#vote-list button[data-player="{target}"] .seat-name')

        # The host dies mid-vote; the ballot tapped now waits, said so once, with the header alone saying the link.
        host.kill9()
        sb.wait(phone, lambda b: "重連中" in sb.text_of(b, "link"), "the phone's header says it reconnects")
        sb.press(phone, phone.find_element(By.CSS_SELECTOR, f'#vote-list button[data-player="{target}"]'))
        sb.confirm_dialog(phone)
        sb.answer_dialog(phone, yes=True)
        sb.wait(phone, lambda b: sb.text_of(b, "prompt") == f"你投 {name}：等主機回來就送出", "the ballot shown as waiting")
        sb.check(sb.text_of(phone, "notice") == "", f"a second link state under the header: {sb.text_of(phone, 'notice')!r}")
        sb.screenshot(phone, args.screenshots, "recovery-waiting-ballot.png")

        # Eight seconds down: long enough that a pause doubling to 15 s would next try 7.5 s after the host is back.
        down_until = time.time() + 8
        sb.wait(phone, lambda b: time.time() >= down_until, "the host down for eight seconds", timeout=20)
        host.start()
        # The moment it listens, on the wall clock the pages stamp their frames with.
        listening = time.time()

        back = {}
        for who, browser, types in (("phone", phone, {"welcome"}), ("guest", guest, {"room"}), ("board", board, {"room"})):
            stamp = sb.wait(browser, lambda b: first_after(b, listening, types), f"the {who} back", timeout=20)
            back[who] = stamp - listening
        print("back after the host listened again: " + ", ".join(f"{who} {seconds:.2f} s" for who, seconds in back.items()))
        for who, seconds in back.items():
            sb.check(seconds <= BACK_WITHIN, f"the {who} was back {seconds:.2f} s after the host listened (at most {BACK_WITHIN} s)")

        # The waiting ballot went: the host counted it (the bots had voted, so it closes the vote with it in the tally).
        counted = (
            "return [...document.querySelectorAll('#events li')].some((e) => e.innerText.startsWith(arguments[0] + ' ← ')"
            " && e.innerText.includes(arguments[1]))"
        )
        sb.wait(phone, lambda b: b.execute_script(counted, name, "小明"), "the waiting ballot in the vote's tally")
        sb.check(sb.text_of(phone, "notice") == "", "nothing left to redo")
        sb.wait(phone, lambda b: sb.text_of(b, "link") == "已連線", "one link state: connected")
        # The guest is back watching, or, the ballot having ended the game, seated for the next one.
        sb.wait(
            guest,
            lambda b: sb.text_of(b, "link") == "觀看中：這局結束就加入" or (sb.visible(b, "game") and sb.text_of(b, "link") == "已連線"),
            "the guest watching again, or seated once the game ended",
        )
        sb.check("已斷線" not in sb.text_of(guest, "link"), "the guest is not told it is disconnected")
        # Refused connections while the host was down are the browser reporting the tries, not page errors.
        sb.check_console(phone, allowed=("/qr.svg", "ERR_CONNECTION_REFUSED"))
        check_new_owner_seats_one_line(board_phone(board), url)
    finally:
        for browser in (phone, guest, board):
            browser.quit()
        host.stop()


if __name__ == "__main__":
    sb.main(run)
