"""One phone-sized page holds a whole table of four and plays a spoken game to game over, one device passed round.

Against `spyd --host` (no bots). The page joins, adds three more players on the device, and starts. The deal walks
through the four seats behind pass screens; 忘詞 is the forgot page (the seats as buttons, a confirmation,
then the chosen seat's word only, hidden again by a tap); a page going hidden takes a shown word off the screen;
each speaker's Done and each ballot (with the vote confirmation) is given on that seat's own turn. After every
step the page's whole markup and text are kept, and once game over names the two words none of them holds both.
The reveal then matches the word each seat was shown.
"""

import passplay as pp
import spybrowser as sb

NAMES = ["小明", "阿華", "Amy", "老王"]


def run(args):
    browser = sb.launch(sb.PHONE, "zh-TW")
    try:
        play(browser, args)
    finally:
        browser.quit()


def play(browser, args):
    sb.join(browser, args.url, NAMES[0])
    pp.check_markup_keeps_words(browser)
    for name in NAMES[1:]:
        pp.add_seat(browser, name)
    sb.check(pp.device_names(browser) == NAMES, f"the page's seats in order: {pp.device_names(browser)}")
    sb.wait(browser, lambda b: sb.seat_count(b) == 4, "four seats at the table")
    here = sb.attributes_of_all(browser, "#seats li .badge.me", "class")
    sb.check(len(here) == 4, f"every seat of the page marked as here in the seats list: {len(here)}")
    snapshots = pp.Snapshots()
    seen = {}
    sb.press(browser, sb.by_id(browser, "start-button"))

    # The deal: four pass screens, one word at a time.
    pp.wait_actionable(browser, "the first pass screen")
    sb.check(pp.actionable(browser) == "pass", "the deal starts behind a pass screen")
    sb.check(sb.text_at(browser, "#pass .pass-to") == f"把裝置交給 {NAMES[0]}", "passed to the first seat first")
    sb.screenshot(browser, args.screenshots, "pass-screen-zh.png")
    sb.check_accessible(browser, "the pass screen")
    sb.no_horizontal_scroll(browser, "the pass screen")
    while len(seen) < 4:
        kind = pp.step(browser, snapshots, seen, choose_vote=None)
        sb.check(kind in ("pass", "word"), f"the deal asks only for passes and words, not {kind!r}")
        pp.wait_actionable(browser, "the next pass screen", also=lambda b: sb.visible(b, "pass-forgot"))
    sb.check(list(seen) == NAMES, f"the deal went round the seats in order: {list(seen)}")

    # The word never stays drawn on a hidden page.
    sb.press(browser, sb.by_id(browser, "pass-forgot"))
    check_forgot(browser, args, snapshots, seen)

    # Spoken turns and ballots: everyone votes for the seat after theirs, except the last, who votes for the first
    # seat's target, so one seat has two votes and goes out.
    ids = pp.device_ids(browser)
    by_name = dict(zip(NAMES, ids))
    target = by_name[NAMES[1]]

    def choose(name, candidates):
        return target if target in candidates else candidates[0]

    done = []
    while pp.actionable(browser) != "over":
        sb.check(len(done) < 200, "the game ends")
        kind = pp.step(browser, snapshots, seen, choose)
        done.append(kind)
        if not kind:
            pp.wait_actionable(browser, "something to do or game over")
    sb.check(done.count("done") >= 4 and done.count("vote") >= 4, f"four spoken turns and four ballots: {done}")
    snapshots.take(browser, "game over")
    civilian = sb.text_of(browser, "civilian-word")
    spy = sb.text_of(browser, "spy-word")
    # Game over reveals both on purpose: only the states before it count.
    snapshots.taken.pop()
    checked = snapshots.check_one_word([civilian, spy])
    reveal = {
        sb.text_at(browser, f'#reveal li[data-player="{pid}"] .reveal-name'): sb.text_at(
            browser, f'#reveal li[data-player="{pid}"] .reveal-word'
        )
        for pid in ids
    }
    for name in NAMES:
        sb.check(reveal[name] == (seen[name] or ""), f"{name} was shown {seen[name]!r}, the reveal says {reveal[name]!r}")
    check_tabs_and_leaving(browser, args)
    sb.check_console(browser)
    print(f"{checked} states of the page held at most one word; words {civilian}/{spy}")


def check_forgot(browser, args, snapshots, seen):
    """The forgot page: names as buttons; one seat's word after a confirmation; gone on a tap or when the
    page is hidden."""
    sb.wait(browser, lambda b: len(b.find_elements("css selector", "#forgot-seats button")) == 4,
            "the forgot page lists the four seats")
    names = browser.execute_script(
        "return [...document.querySelectorAll('#forgot-seats button')].map((e) => e.textContent)"
    )
    sb.check(names == NAMES, f"the forgot page's buttons are the page's seats: {names}")
    sb.screenshot(browser, args.screenshots, "forgot-page-zh.png")
    sb.check_accessible(browser, "the forgot page")
    chosen = NAMES[2]
    sb.press(browser, browser.find_elements("css selector", "#forgot-seats button")[2])
    sb.wait(browser, lambda b: sb.visible(b, "forgot-show"), "the confirmation")
    sb.check(sb.text_at(browser, "#pass .pass-to") == f"只有 {chosen} 在看嗎？", "asks who is looking")
    snapshots.take(browser, "forgot confirmation")
    sb.press(browser, sb.by_id(browser, "forgot-show"))
    text = sb.wait(browser, lambda b: pp.shown_word_text(b), "the chosen seat's word")
    snapshots.take(browser, "forgot word")
    sb.check(text.startswith(chosen) and pp.word_of(text) == seen[chosen], f"{chosen}'s word on the forgot page: {text}")
    others = {word for name, word in seen.items() if name != chosen and word and word != seen[chosen]}
    html = pp.markup(browser)
    sb.check(not any(pp.holds(html, word) for word in others), f"no other seat's word ({others}) in the document")
    # Hidden page: the word goes at once.
    browser.execute_script(
        "Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });"
        "document.dispatchEvent(new Event('visibilitychange'));"
    )
    sb.check(pp.shown_word_text(browser) is None, "no word on a hidden page")
    browser.execute_script(
        "delete document.visibilityState; document.dispatchEvent(new Event('visibilitychange'));"
    )
    sb.wait(browser, lambda b: sb.visible(b, "pass-forgot"), "back to 忘詞 when the page shows again")
    # Again, and a tap hides it.
    sb.press(browser, sb.by_id(browser, "pass-forgot"))
    sb.press(browser, browser.find_elements("css selector", "#forgot-seats button")[2])
    sb.press(browser, sb.by_id(browser, "forgot-show"))
    sb.wait(browser, lambda b: pp.shown_word_text(b), "the word again")
    sb.press(browser, sb.by_id(browser, "forgot-word"))
    sb.wait(browser, lambda b: pp.shown_word_text(b) is None and b.find_elements("css selector", "#forgot-seats"),
            "a tap hides the word, back to the names")
    sb.press(browser, browser.find_element("css selector", "#pass button.secondary"))
    sb.wait(browser, lambda b: sb.visible(b, "pass-forgot"), "back from the forgot page")



def check_tabs_and_leaving(browser, args):
    """A new tab takes every seat of the device; 在這裡玩 in the old one takes all of them back. The first seat
    leaving hands the page's first place to the next, which a reload keeps."""
    first = browser.current_window_handle
    sb.new_tab(browser)
    browser.get(args.url + "/")
    sb.wait(browser, lambda b: pp.device_names(b) == NAMES and not connecting(b), "every seat in the new tab")
    browser.close()
    browser.switch_to.window(first)
    sb.wait(browser, lambda b: sb.visible(b, "play-here"), "the old tab steps aside")
    sb.check(pp.shown_word_text(browser) is None, "no word on the tab that stepped aside")
    sb.press(browser, sb.by_id(browser, "play-here"))
    sb.wait(browser, lambda b: pp.device_names(b) == NAMES and not connecting(b), "every seat back in the old tab")
    sb.press(browser, sb.by_id(browser, "leave-button"))
    sb.confirm_dialog(browser)
    sb.answer_dialog(browser, yes=True)
    sb.wait(browser, lambda b: pp.device_names(b) == NAMES[1:] and sb.seat_count(b) == 3, "the next seat goes first")
    browser.refresh()
    sb.wait(browser, lambda b: pp.device_names(b) == NAMES[1:] and not connecting(b), "the three seats after a reload")


def connecting(browser):
    """Some seat of the page is not connected (the device list or the table says so)."""
    return bool(
        browser.execute_script(
            "return document.querySelector('#device-seat-list .badge.away, #seats li.is-away') !== null"
        )
    )


if __name__ == "__main__":
    sb.main(run)
