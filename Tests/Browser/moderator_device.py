"""The moderator holds the phone, as in the original app: one page at 390×844 with the moderator and four players.

Against `spyd --host` (no bots, spoken clues). The page joins and its owner moderates; it adds four players on the
device, types the pair and starts. The moderator's screen (every word) opens only after "only the moderator is
looking", never while a player's pass screen waits, and goes when hidden or when the page is hidden. The deal walks
through the four players' pass screens (the moderator gets none); spoken turns and ballots are given behind them.
Every state of the page is kept; none of them, except while the moderator's screen is open, holds both words; the
moderator's screen shows each player the word their pass screen showed, and the reveal matches.
"""

import passplay as pp
import spybrowser as sb

MODERATOR = "阿姨"
NAMES = ["小明", "阿華", "Amy", "老王"]
PAIR = ("婚紗", "禮服")


def run(args):
    browser = sb.launch(sb.PHONE, "zh-TW")
    try:
        play(browser, args)
    finally:
        browser.quit()


def moderator_words(browser):
    return browser.execute_script(
        """
        return Object.fromEntries([...document.querySelectorAll("#moderator-players li")].map((li) =>
          [li.querySelector(".reveal-name").textContent, li.querySelector(".reveal-word").textContent]));
        """
    )


def open_screen(browser):
    """The moderator's screen, after saying only the moderator is looking."""
    sb.press(browser, sb.by_id(browser, "moderator-screen"))
    sb.wait(browser, lambda b: sb.visible(b, "moderator-show"), "only the moderator looking?")
    sb.check(sb.text_at(browser, ".moderator-sure .pass-to") == f"只有法官 {MODERATOR} 在看嗎？", "the question names the moderator")
    sb.check(not browser.find_elements("id", "moderator-secret"), "nothing secret before the yes")
    sb.press(browser, sb.by_id(browser, "moderator-show"))
    sb.wait(browser, lambda b: sb.visible(b, "moderator-secret"), "the moderator's screen")


def hide_screen(browser):
    sb.press(browser, sb.by_id(browser, "moderator-hide"))
    sb.wait(browser, lambda b: not b.find_elements("id", "moderator-secret"), "the moderator's screen gone")


def play(browser, args):
    sb.join(browser, args.url, MODERATOR)
    sb.wait(browser, lambda b: sb.visible(b, "moderator-me"), "the owner's moderator controls")
    sb.press(browser, sb.by_id(browser, "moderator-me"))
    sb.wait(browser, lambda b: sb.text_at(b, "#moderator-line") == f"法官：{MODERATOR}（不算在玩家人數內）", "moderating")
    for name in NAMES:
        pp.add_seat(browser, name)
    sb.wait(browser, lambda b: sb.text_of(b, "table-size").startswith("4 位玩家"), "four players, the moderator not counted")

    sb.by_id(browser, "moderator-civilian").send_keys(PAIR[0])
    sb.by_id(browser, "moderator-spy").send_keys(PAIR[1])
    sb.press(browser, sb.by_id(browser, "moderator-pair-send"))
    sb.wait(browser, lambda b: b.find_elements("id", "moderator-pair-send") and
            sb.by_id(b, "moderator-civilian").get_attribute("value") == "", "the pair taken")
    sb.check(PAIR[0] not in pp.markup(browser), "the typed pair is not on the shared page until the moderator looks")
    open_screen(browser)
    sb.check(sb.text_at(browser, "#moderator-next") == f"下一局：平民詞 {PAIR[0]} · 臥底詞 {PAIR[1]}", "the pair typed")
    hide_screen(browser)
    sb.press(browser, sb.by_id(browser, "start-button"))

    snapshots = pp.Snapshots()
    seen = {}
    pp.wait_actionable(browser, "the first pass screen")
    while len(seen) < len(NAMES):
        sb.check(not browser.find_elements("id", "moderator-screen"), "no moderator's screen while a player's pass screen waits")
        kind = pp.step(browser, snapshots, seen, choose_vote=None)
        sb.check(kind in ("pass", "word"), f"the deal asks only for passes and words, not {kind!r}")
        pp.wait_actionable(browser, "the next pass screen", also=lambda b: sb.visible(b, "pass-forgot"))
    sb.check(list(seen) == NAMES, f"the deal went round the four players, not the moderator: {list(seen)}")
    sb.check(set(seen.values()) == set(PAIR), f"the typed pair was dealt: {seen}")

    # The moderator looks: every player's word, as each was shown it.
    sb.wait(browser, lambda b: sb.visible(b, "moderator-screen"), "the moderator's screen offered")
    open_screen(browser)
    sb.check(moderator_words(browser) == seen, f"the moderator sees {moderator_words(browser)}, the players saw {seen}")
    sb.screenshot(browser, args.screenshots, "moderator-device-zh.png")
    sb.at_sizes(browser, "the moderator's screen on a shared page")
    # A hidden page takes it off the screen.
    browser.execute_script(
        "Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    sb.wait(browser, lambda b: not b.find_elements("id", "moderator-secret"), "the screen gone with the page hidden")
    browser.execute_script(
        "delete document.visibilityState; document.dispatchEvent(new Event('visibilitychange'));"
    )
    sb.wait(browser, lambda b: sb.visible(b, "moderator-screen") or pp.actionable(b), "the page back")
    snapshots.take(browser, "the moderator's screen closed")

    ids = pp.device_ids(browser)
    done = []
    while pp.actionable(browser) != "over":
        sb.check(len(done) < 200, "the game ends")
        kind = pp.step(browser, snapshots, seen, choose_vote=lambda name, candidates: candidates[0])
        if kind:
            done.append(kind)
        else:
            pp.wait_actionable(browser, "the next move")
    sb.check(done.count("done") >= 4 and done.count("vote") >= 4, f"spoken turns and ballots: {done}")
    checked = snapshots.check_one_word(list(PAIR))
    reveal = browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#reveal li')].map((li) =>"
        " [li.querySelector('.reveal-name').textContent, li.querySelector('.reveal-word').textContent]))"
    )
    sb.check(reveal == seen, f"the reveal {reveal} is what each was shown {seen}")
    sb.check(len(ids) == 5, f"five seats on the device: {ids}")
    sb.check_console(browser)
    print(f"{checked} states of the shared page held at most one word")


if __name__ == "__main__":
    sb.main(run)
