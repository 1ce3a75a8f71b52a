"""The board as a TV view: ten players (one phone player, the owner, and nine bots) play typed games until five
rounds of clues are on the board, then to game over, then again.

Against `spyd --host --bots 9 --clues typed --spies 3 --bot-level easy`. At 1920×1080 and 1280×720 the board is
measured in the lobby, with five rounds of clues, and at game over with ten players revealed: nothing scrolls,
every text a player must read from the sofa (names, clues, results, the reveal) is at least 2.5 % of the screen's
height and on screen, the room code at least 10 %; the join panel is large in the lobby and a corner during a game;
the rounds before the latest fold to one line each; Play again clears the last vote; a lost connection is a banner
across the screen.
"""

import time

import spybrowser as sb
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

TV = (1920, 1080)
SMALL_TV = (1280, 720)

MEASURE = """
const height = window.innerHeight;
const width = window.innerWidth;
const problems = [];
const shown = (node) => node.getClientRects().length > 0 && !node.closest("[hidden]");
const say = (node) => JSON.stringify(node.textContent.trim().slice(0, 24));
// Text a player reads from the sofa; the line items are also checked for position (a clue's spans may run under
// the line clamp of their item, which is what is shown).
const readable = ["#seats li", "#seats .seat-name", "#clues li", "#clues .clue-text", ".vote-name", ".vote-verdict",
  ".tally-lines li", "#now", "#now-detail", "#reveal li", "#reveal .reveal-name", "#reveal .reveal-word", "#winner",
  ".words dd", "#offline", "#timer", "#owner-news", "#board-settings", "#evening-games p"];
const placed = new Set(["#seats li", "#clues li", ".vote-name", ".tally-lines li", "#now", "#now-detail", "#reveal li",
  "#winner", ".words dd", "#owner-news", "#evening-games p"]);
let counted = 0;
for (const selector of readable) {
  for (const node of document.querySelectorAll(selector)) {
    if (!shown(node)) continue;
    counted += 1;
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size < 0.025 * height - 0.01) problems.push(`${selector} ${say(node)} is ${size}px, under 2.5% of ${height}`);
    if (!placed.has(selector)) continue;
    const box = node.getBoundingClientRect();
    if (box.top < -0.5 || box.bottom > height + 0.5 || box.left < -0.5 || box.right > width + 0.5) {
      problems.push(`${selector} ${say(node)} is off screen: ${Math.round(box.top)}–${Math.round(box.bottom)}`);
    }
    const card = node.closest(".card");
    if (card) {
      const frame = card.getBoundingClientRect();
      if (box.bottom > frame.bottom + 0.5 || box.right > frame.right + 0.5) {
        problems.push(`${selector} ${say(node)} is cut off by its card (${Math.round(box.bottom)} > ${Math.round(frame.bottom)})`);
      }
    }
  }
}
const code = document.getElementById("room-code");
const codeSize = parseFloat(getComputedStyle(code).fontSize);
if (!shown(code)) problems.push("the room code is not shown");
else if (codeSize < 0.1 * height) problems.push(`the room code is ${codeSize}px, under 10% of ${height}`);
const page = document.documentElement;
if (page.scrollHeight > height || page.scrollWidth > width) {
  problems.push(`the board scrolls: ${page.scrollWidth}×${page.scrollHeight} in ${width}×${height}`);
}
const qr = document.querySelector("#qr-slot img");
return { problems, counted, qr: qr ? qr.getBoundingClientRect().height / height : 0 };
"""


def measure(browser, where, sizes=(TV, SMALL_TV)):
    """The board at each TV size meets the size rule; returns the QR code's height as a share of the screen's."""
    shares = []
    for size in sizes:
        sb.set_size(browser, size)
        sb.wait(browser, lambda b: b.execute_script("return window.innerHeight") == size[1], f"height {size[1]}")
        found = browser.execute_script(MEASURE)
        sb.check(not found["problems"], f"{where} at {size[0]}×{size[1]}: " + "; ".join(found["problems"]))
        sb.check(found["counted"] >= 10, f"{where}: only {found['counted']} texts measured")
        shares.append(found["qr"])
    return shares


def tv_screenshot(browser, args, name):
    sb.set_size(browser, TV)
    sb.wait(browser, lambda b: b.execute_script("return [innerWidth, innerHeight]") == list(TV), "1920×1080")
    sb.screenshot(browser, args.screenshots, name)


def board_state(browser):
    return browser.execute_script(
        "return board.room ? [board.room.phase, board.room.round, board.room.game, board.room.clues.length] : null"
    )


def play(args):
    browser = sb.launch(sb.PHONE, "en-US")
    try:
        run(browser, args)
    finally:
        browser.quit()


def act(browser):
    """The phone player's move, if the game waits for one: pass on their turn, vote for the first candidate."""
    if sb.visible(browser, "clue-form"):
        sb.press(browser, sb.by_id(browser, "pass-button"))
        sb.wait(browser, lambda b: not sb.visible(b, "clue-form"), "the pass taken")
    elif sb.visible(browser, "vote-list") and not browser.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"):
        candidates = sb.attributes_of_all(browser, "#vote-list button.vote", "data-player")
        if candidates:
            sb.vote_for(browser, candidates[0])
    elif sb.visible(browser, "hide-word"):
        sb.press(browser, sb.by_id(browser, "hide-word"))


def run(browser, args):
    url = args.url
    player = browser.current_window_handle
    board = sb.new_tab(browser, TV)
    browser.get(url + "/board")
    sb.wait(browser, lambda b: sb.text_of(b, "room-code"), "the board's room code")
    sb.wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#qr-slot img"), "the QR code")

    browser.switch_to.window(player)
    sb.join(browser, url, "Ming")
    sb.wait(browser, lambda b: sb.seat_count(b) == 10, "nine bots seated")
    # A tie puts nobody out, so games run for many rounds.
    Select(sb.by_id(browser, "set-tieRule")).select_by_value("nobody")
    sb.wait(browser, lambda b: "tie: nobody out" in sb.text_of(b, "settings-line"), "ties put nobody out")

    browser.switch_to.window(board)
    sb.wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#seats li")) == 10, "ten seats on the board")
    lobby_qr = measure(browser, "the lobby")
    sb.check(min(lobby_qr) >= 0.3, f"the lobby's QR code is large: {lobby_qr} of the height")
    tv_screenshot(browser, args, "board-lobby-tv.png")

    browser.switch_to.window(player)
    sb.press(browser, sb.by_id(browser, "start-button"))
    measured = False
    games = 1
    deadline = time.monotonic() + 150
    while True:
        sb.check(time.monotonic() < deadline, "five rounds of clues and a game over within 150 s")
        browser.switch_to.window(player)
        act(browser)
        browser.switch_to.window(board)
        phase, round_now, game, _ = board_state(browser) or ["", 0, 0, 0]
        if not measured and phase == "voting" and round_now >= 5:
            # Five rounds of clues (or more): the latest in full, the four before it folded to a line each (those
            # the room still holds: it keeps its latest clues, so past round 5 the oldest may be gone), everything
            # on one screen. The vote may be caught in a later round than the fifth, whose clues are read here.
            folded, earlier = browser.execute_script(
                "const rounds = board.room.clues.map((c) => c.round);"
                "const latest = Math.max(...rounds);"
                "return [document.querySelectorAll('#clues .folded').length,"
                " new Set(rounds.filter((r) => r < latest)).size]"
            )
            sb.check(
                folded == min(4, earlier) >= 3, f"{folded} rounds folded of {earlier} before round {round_now}'s"
            )
            corner_qr = measure(browser, f"round {round_now}'s vote")
            sb.check(max(corner_qr) <= 0.2, f"the QR code is a corner during a game: {corner_qr} of the height")
            tv_screenshot(browser, args, "board-clues-tv.png")
            measured = True
        if phase == "gameOver":
            if measured:
                break
            # The game ended before five rounds: the next one may get there; it starts without the last vote.
            browser.switch_to.window(player)
            sb.press(browser, sb.by_id(browser, "start-button"))
            games += 1
            browser.switch_to.window(board)
            check_new_game_clear(browser, games)
            sb.check(games <= 6, "five rounds of clues in one of six games")

    sb.wait(browser, lambda b: sb.visible(b, "game-over"), "the board's reveal")
    sb.check(len(browser.find_elements(By.CSS_SELECTOR, "#reveal li")) == 10, "ten players revealed")
    measure(browser, "game over")
    tv_screenshot(browser, args, "board-game-over-tv.png")

    # Play again: the board no longer shows the last game's vote.
    browser.switch_to.window(player)
    sb.press(browser, sb.by_id(browser, "start-button"))
    browser.switch_to.window(board)
    check_new_game_clear(browser, games + 1)

    # The host is lost: a banner across the screen, gone when the board is back.
    sb.record_frames(browser)
    browser.refresh()
    sb.wait(browser, lambda b: board_state(b) and sb.text_of(b, "link") == "connected", "the board connected")
    browser.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    sb.drop_connection(browser)
    sb.wait(browser, lambda b: sb.visible(b, "offline"), "the lost-connection banner")
    size = browser.execute_script("return parseFloat(getComputedStyle(document.getElementById('offline')).fontSize)")
    sb.check(size >= 0.05 * TV[1], f"the banner's text is {size}px at 1080p")
    online = dict(offline, offline=False)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", online)
    sb.wait(browser, lambda b: not sb.visible(b, "offline"), "the banner gone once the board is back")
    # A reconnection tried while the network was cut is logged by the browser itself.
    sb.check_console(browser, allowed=("/qr.svg", "ERR_INTERNET_DISCONNECTED", "/ws' failed"))


def check_new_game_clear(browser, game):
    sb.wait(browser, lambda b: (board_state(b) or [0, 0, 0])[2] == game, f"game {game} on the board")
    # The phone player has not passed yet, so the first round is still on.
    phase, round_now, _, _ = board_state(browser)
    sb.check((phase, round_now) == ("describing", 1), f"game {game} is in its first round: {phase} {round_now}")
    sb.check(not sb.visible(browser, "result"), f"game {game}'s first round shows no vote of the game before")


if __name__ == "__main__":
    sb.main(play)
