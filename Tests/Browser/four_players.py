"""Four browsers play a spoken game against each other; each sees only its own word.

Against `spyd --host` (no bots). Each player is a browser of its own (a seat belongs to the browser, not the tab).
After the deal, three hold one word and one the other; before game over no page is sent the other word, keeps a
word in its storage, or shows its own word while 忘詞 is not held. Every speaker presses Done in turn, everyone votes for the
same player (confirming with 滾吧！), and the game ends after that vote whoever was out: the reveal then matches the
word each was shown. A fifth player who comes during the game watches and joins at its end. Then the owner kicks
a player.
"""

import json

import spybrowser as sb
from selenium.webdriver.common.by import By

# The last player leaves the name empty: an English page gives a default name in English.
NAMES = ["王小明", "Amy", "李大華", ""]


def stored_values(browser):
    """Every value the tab keeps in sessionStorage and localStorage, with the strings inside JSON values."""
    values = browser.execute_script(
        "return [...Object.values(sessionStorage), ...Object.values(localStorage)].map(String)"
    )
    found = []
    for value in values:
        found.append(value)
        try:
            found += [inner for _, inner in sb.fields(json.loads(value)) if inner is not None]
        except ValueError:
            pass
    return found


def play(args):
    browsers = []
    try:
        run(browsers, args)
    finally:
        for browser in browsers:
            browser.quit()


def go(tab):
    """The browser of a (browser, window) pair, showing that window."""
    browser, handle = tab
    browser.switch_to.window(handle)
    return browser


def run(browsers, args):
    url = args.url
    tabs = {}  # player id -> (browser, window handle)
    for index, name in enumerate(NAMES):
        # Two players on laptops, two on phones.
        browser = sb.launch(sb.LAPTOP if index % 2 else sb.PHONE, "en-US")
        browsers.append(browser)
        sb.record_frames(browser)
        me = sb.join(browser, url, name)
        sb.check(me not in tabs, f"player {index + 1} got a seat of its own, not {me}")
        tabs[me] = (browser, browser.current_window_handle)
    owner = next(iter(tabs))
    sb.check(sb.phase_of(browser).startswith("Room "), "an en-US browser gets English")
    default_name = sb.text_at(browser, "#seats li.is-me .seat-name")
    sb.check(default_name.startswith("Player "), f"an empty name on an English page becomes {default_name!r}")

    for me, handle in tabs.items():
        browser = go(handle)
        sb.wait(browser, lambda b: sb.seat_count(b) == 4, f"{me} sees four seats")
        sb.check(
            bool(browser.find_elements(By.ID, "start-button")) and sb.visible(browser, "start-button") == (me == owner),
            f"only the owner ({owner}) has Start",
        )

    browser = go(tabs[owner])
    sb.press(browser, sb.by_id(browser, "start-button"))

    # A fifth player arrives while the game runs: the page watches the room and joins by itself when it ends.
    late_browser = sb.launch(sb.PHONE, "en-US")
    browsers.append(late_browser)
    sb.record_frames(late_browser)
    late_browser.get(url + "/")
    sb.wait(late_browser, lambda b: sb.visible(b, "join-name"), "the join form")
    sb.by_id(late_browser, "join-name").send_keys("Dana")
    sb.press(late_browser, sb.by_id(late_browser, "join-button"))
    sb.wait(late_browser, lambda b: sb.visible(b, "watch"), "the late player watches the running game")
    sb.wait(late_browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#watch-seats li")) == 4, "the table watched")
    sb.check(not sb.visible(late_browser, "join-form"), "no join form to press again while waiting")

    words = {}
    for me, handle in tabs.items():
        browser = go(handle)
        words[me] = sb.take_dealt_word(browser)
    distinct = sorted(set(words.values()), key=lambda w: list(words.values()).count(w))
    sb.check(len(distinct) == 2, f"two words dealt: {words}")
    counts = sorted(list(words.values()).count(w) for w in distinct)
    sb.check(counts == [1, 3], f"one spy word and three civilian words: {words}")

    def check_secrets(moment):
        for me, handle in tabs.items():
            browser = go(handle)
            received = sb.frames(browser)
            sb.check(sb.before_game_over(received) == received, f"no game over yet {moment}")
            deals = [frame for frame in received if frame.get("type") == "deal"]
            sb.check(deals and all(d.get("word") == words[me] for d in deals), f"{me} was dealt only its word")
            for frame in received:
                if frame.get("type") != "deal":
                    sb.check_no_word(frame, distinct, f"a frame to {me} {moment}")
            kept = stored_values(browser)
            sb.check(not set(kept) & set(distinct), f"{me}'s storage keeps a word {moment}: {kept}")
            sb.check(sb.shown_word(browser) == "", f"{me}'s word is off the page while 忘詞 is not held {moment}")
            sb.check(sb.word_while_holding(browser) == words[me], f"{me} holds 忘詞 and sees its own word")

    check_secrets("after the deal")

    # A guest's tab is lost; a new tab of the same browser resumes the seat and the word, without showing it.
    guest = list(tabs)[1]
    browser, lost = tabs[guest]
    browser.switch_to.window(lost)
    fresh = sb.new_tab(browser, sb.PHONE)
    sb.record_frames(browser)
    browser.switch_to.window(lost)
    browser.close()
    browser.switch_to.window(fresh)
    browser.get(url + "/")
    sb.wait(browser, lambda b: sb.visible(b, "game") and sb.visible(b, "forgot"), "the new tab resumes the game")
    sb.check(sb.my_id(browser) == guest, "the new tab has the guest's seat")
    sb.check(sb.shown_word(browser) == "", "the resumed word is not shown by itself")
    sb.check(sb.word_while_holding(browser) == words[guest], "the new tab holds the guest's word")
    tabs[guest] = (browser, fresh)

    # Spoken clues: whoever's turn it is presses Done, seen from the tab of that player.
    spoken = 0
    while True:
        browser = go(tabs[owner])
        # The owner's page has every clue so far before it names the next speaker.
        state = sb.wait(
            browser,
            lambda b: "voting"
            if "Voting" in sb.phase_of(b)
            else len(b.find_elements(By.CSS_SELECTOR, "#clues li.clue")) == spoken
            and sb.attribute_at(b, "#seats li.is-turn", "data-player"),
            "a turn or the vote",
        )
        if state == "voting":
            break
        speaker = state
        browser = go(tabs[speaker])
        sb.wait(browser, lambda b: sb.visible(b, "done-button"), f"{speaker}'s Done button")
        sb.check(not sb.visible(browser, "clue-form"), "no clue box in spoken mode")
        sb.press(browser, sb.by_id(browser, "done-button"))
        sb.wait(browser, lambda b: not sb.visible(b, "done-button"), f"{speaker}'s turn over")
        spoken += 1
    sb.check(spoken == 4, f"four players spoke, saw {spoken}")

    check_secrets("during the vote")

    # Everyone votes the first seat out; that player votes for the second.
    ids = list(tabs)
    target, fallback = ids[0], ids[1]
    for me, handle in tabs.items():
        browser = go(handle)
        sb.wait(browser, lambda b: sb.visible(b, "vote-list"), f"{me} may vote")
        chosen = fallback if me == target else target
        question = sb.vote_for(browser, chosen)
        sb.check(question.startswith("Vote ") and question.endswith(" out?"), f"the question {question!r}")
        sb.check_focus_after_vote(browser, chosen)
        if me == owner:
            # The first ballot keeps the vote open: after a reload the page still says for whom it was.
            chosen_name = sb.text_at(browser, f'#seats li[data-player="{chosen}"] .seat-name')
            browser.refresh()
            sb.wait(
                browser,
                lambda b: sb.text_of(b, "prompt") == f"You voted for {chosen_name} (you may change it)",
                "my ballot named after a reload",
            )
        # Who has voted shows on every tab, never for whom.
        sb.wait(
            browser,
            lambda b: b.find_elements(By.CSS_SELECTOR, f'#seats li[data-player="{me}"] .badge.voted')
            or sb.visible(b, "game-over"),
            f"{me} marked as voted",
        )

    for me, handle in tabs.items():
        browser = go(handle)
        sb.wait(browser, lambda b: sb.visible(b, "game-over"), f"{me} sees the game over")
        civilian, spy = sb.text_of(browser, "civilian-word"), sb.text_of(browser, "spy-word")
        sb.check({civilian, spy} == set(distinct), f"{me} sees both words {civilian!r} / {spy!r}")
        revealed = sb.text_at(browser, f'#reveal li[data-player="{me}"] .reveal-word')
        sb.check(revealed == words[me], f"{me} was shown {words[me]!r}, revealed {revealed!r}")
        seat_class = sb.attribute_at(browser, f'#seats li[data-player="{target}"]', "class") or ""
        sb.check("is-out" in seat_class.split(), f"{target} is out on {me}'s page")
        sb.at_sizes(browser, f"{me}'s game over")

    # The late player joined by itself at the end of the game, and was never sent a word before it.
    sb.wait(late_browser, lambda b: sb.visible(b, "game") and sb.seat_count(b) == 5, "the late player seated")
    late = sb.my_id(late_browser)
    sb.check(late not in tabs, f"the late player has a seat of its own: {late}")
    sb.check(not any(f.get("type") == "deal" for f in sb.frames(late_browser)), "the late player was dealt nothing")

    # A player's tab goes away: the others see the seat away, in words.
    gone = ids[2]
    browser = go(tabs[gone])
    blank = sb.new_tab(browser, sb.PHONE)
    go(tabs[gone]).close()
    tabs[gone] = (browser, blank)
    browser = go(tabs[owner])
    sb.wait(
        browser,
        lambda b: "is-away" in (sb.attribute_at(b, f'#seats li[data-player="{gone}"]', "class") or ""),
        f"{gone} away on the owner's page",
    )
    sb.at_sizes(browser, "game over with a player away")

    # The owner removes the last player: that tab is back at the door, told why, its seat gone.
    kicked = ids[-1]
    kicked_name = sb.text_at(browser, f'#seats li[data-player="{kicked}"] .seat-name')
    browser = go(tabs[owner])
    button = browser.find_element(By.CSS_SELECTOR, f'#seats li[data-player="{kicked}"] button.kick')
    sb.press(browser, button)
    question, yes, _ = sb.confirm_dialog(browser)
    sb.check(question.startswith("Remove ") and yes == "Remove", f"the kick asks {question!r}")
    sb.answer_dialog(browser, yes=True)
    sb.wait(browser, lambda b: sb.seat_count(b) == 4, "four seats left on the owner's page")
    revealed_name = sb.text_at(browser, f'#reveal li[data-player="{kicked}"] .reveal-name')
    sb.check(revealed_name == kicked_name, f"the reveal names the removed player {revealed_name!r}, not its id")
    browser = go(tabs[kicked])
    sb.wait(browser, lambda b: sb.visible(b, "join-form"), "the kicked tab back at the join form")
    sb.check(sb.text_of(browser, "join-error") == "The owner removed you", "the kicked player is told why")
    sb.check(not sb.stored_seats(browser), "the kicked tab forgets its seat")
    # That player opens a room of their own, after saying yes: its lobby says it is a new room.
    sb.press(browser, sb.by_id(browser, "create-button"))
    sb.confirm_dialog(browser)
    sb.answer_dialog(browser, yes=True)
    sb.wait(browser, lambda b: sb.visible(b, "game"), "seated in the new room")
    sb.check(sb.text_of(browser, "prompt").startswith("You opened this new room"), "the lobby says the room is new")
    for tab in tabs.values():
        sb.check_console(tab[0])
    sb.check_console(late_browser)


if __name__ == "__main__":
    sb.main(play)
