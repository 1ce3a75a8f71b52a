"""Four browser tabs play a spoken game against each other; each sees only its own word.

Against `spyd --host` (no bots). Each tab is its own player (the resume token is kept per tab). After the deal,
three tabs hold one word and one tab the other; before game over no tab is sent the other word, keeps a word in
its storage, or shows its own word while 忘詞 is not held. Every speaker presses Done in turn, everyone votes for the
same player (confirming with 滾吧！), and the game ends after that vote whoever was out: the reveal then matches the
word each tab was shown. Then the owner kicks a player.
"""

import json

import spybrowser as sb
from selenium.webdriver.common.by import By

NAMES = ["王小明", "Amy", "李大華", "Bob"]


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
    browser = sb.launch(sb.PHONE, "en-US")
    try:
        run(browser, args)
    finally:
        browser.quit()


def run(browser, args):
    url = args.url
    tabs = {}  # player id -> window handle
    for index, name in enumerate(NAMES):
        if index > 0:
            # Two players on laptops, two on phones.
            sb.new_tab(browser, sb.LAPTOP if index % 2 else sb.PHONE)
        sb.record_frames(browser)
        me = sb.join(browser, url, name)
        sb.check(me not in tabs, f"tab {index + 1} got a seat of its own, not {me}")
        tabs[me] = browser.current_window_handle
    owner = next(iter(tabs))
    sb.check(sb.phase_of(browser).startswith("Room "), "an en-US browser gets English")

    for me, handle in tabs.items():
        browser.switch_to.window(handle)
        sb.wait(browser, lambda b: sb.seat_count(b) == 4, f"{me} sees four seats")
        sb.check(
            bool(browser.find_elements(By.ID, "start-button")) and sb.visible(browser, "start-button") == (me == owner),
            f"only the owner ({owner}) has Start",
        )

    browser.switch_to.window(tabs[owner])
    sb.press(browser, sb.by_id(browser, "start-button"))

    words = {}
    for me, handle in tabs.items():
        browser.switch_to.window(handle)
        words[me] = sb.take_dealt_word(browser)
    distinct = sorted(set(words.values()), key=lambda w: list(words.values()).count(w))
    sb.check(len(distinct) == 2, f"two words dealt: {words}")
    counts = sorted(list(words.values()).count(w) for w in distinct)
    sb.check(counts == [1, 3], f"one spy word and three civilian words: {words}")

    def check_secrets(moment):
        for me, handle in tabs.items():
            browser.switch_to.window(handle)
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

    # Spoken clues: whoever's turn it is presses Done, seen from the tab of that player.
    spoken = 0
    while True:
        browser.switch_to.window(tabs[owner])
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
        browser.switch_to.window(tabs[speaker])
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
        browser.switch_to.window(handle)
        sb.wait(browser, lambda b: sb.visible(b, "vote-list"), f"{me} may vote")
        chosen = fallback if me == target else target
        question = sb.vote_for(browser, chosen)
        sb.check(question.startswith("Vote ") and question.endswith(" out?"), f"the question {question!r}")
        # Who has voted shows on every tab, never for whom.
        sb.wait(
            browser,
            lambda b: b.find_elements(By.CSS_SELECTOR, f'#seats li[data-player="{me}"] .badge.voted')
            or sb.visible(b, "game-over"),
            f"{me} marked as voted",
        )

    for me, handle in tabs.items():
        browser.switch_to.window(handle)
        sb.wait(browser, lambda b: sb.visible(b, "game-over"), f"{me} sees the game over")
        civilian, spy = sb.text_of(browser, "civilian-word"), sb.text_of(browser, "spy-word")
        sb.check({civilian, spy} == set(distinct), f"{me} sees both words {civilian!r} / {spy!r}")
        revealed = sb.text_at(browser, f'#reveal li[data-player="{me}"] .reveal-word')
        sb.check(revealed == words[me], f"{me} was shown {words[me]!r}, revealed {revealed!r}")
        seat_class = sb.attribute_at(browser, f'#seats li[data-player="{target}"]', "class") or ""
        sb.check("is-out" in seat_class.split(), f"{target} is out on {me}'s page")
        sb.at_sizes(browser, f"{me}'s game over")

    # The owner removes the last player: that tab is back at the door, told why, its seat gone.
    kicked = ids[-1]
    browser.switch_to.window(tabs[owner])
    button = browser.find_element(By.CSS_SELECTOR, f'#seats li[data-player="{kicked}"] button.kick')
    sb.press(browser, button)
    question, yes, _ = sb.confirm_dialog(browser)
    sb.check(question.startswith("Remove ") and yes == "Remove", f"the kick asks {question!r}")
    sb.answer_dialog(browser, yes=True)
    sb.wait(browser, lambda b: sb.seat_count(b) == 3, "three seats left on the owner's page")
    browser.switch_to.window(tabs[kicked])
    sb.wait(browser, lambda b: sb.visible(b, "join-form"), "the kicked tab back at the join form")
    sb.check(sb.text_of(browser, "join-error") == "The owner removed you", "the kicked player is told why")
    sb.check(
        not browser.execute_script("return sessionStorage.getItem('whoisspy.token')"), "the kicked tab forgets its token"
    )
    sb.check_console(browser)


if __name__ == "__main__":
    sb.main(play)
