"""A party on phones: tabs get lost, a phone is swapped, the owner wanders off; nobody blocks the table.

Against `spyd --host --bots 1` (spoken clues). Four people on their own browsers (Olive the owner, Amy, Ben, Cleo)
and a bot play. During the game Cleo's tab is lost and Cleo comes back on a different phone (a fresh browser, no
stored seat): joining with her name asks the room for her seat and the owner refuses; joining under another name
watches the running game, where "That's me" on her away seat asks again, and she gets the seat, with her word, only
after the owner taps Allow; her old phone is then refused. The game is played to the end. Then the owner's tab is lost: after
30 s away, ownership passes to Amy (the longest-seated connected person), announced on the pages; Amy plays again
from the bottom of her page (the new word in view), Olive's away seat is not dealt in and shows so, and Olive,
back in a new tab, is seated but neither owner nor dealt in.
"""

import time

import spybrowser as sb
from selenium.webdriver.common.by import By

NAMES = ["Olive", "Amy", "Ben", "Cleo"]
# The host hands ownership over after 30 s away; the page must show it within this.
HANDOVER_DEADLINE = 50


def play(args):
    browsers = []
    try:
        run(browsers, args)
    finally:
        for browser in browsers:
            browser.quit()


def lose_tab(browser):
    """The page's tab is gone (closed, or the phone killed it): a blank tab remains in that browser."""
    old = browser.current_window_handle
    blank = sb.new_tab(browser, sb.PHONE)
    browser.switch_to.window(old)
    browser.close()
    browser.switch_to.window(blank)


def seat_class(browser, player):
    return (sb.attribute_at(browser, f'#seats li[data-player="{player}"]', "class") or "").split()


def act(browser, bot):
    """One move the game waits for on this page, if any: Done on a spoken turn, a vote for the bot."""
    # Away seats' turns pass by themselves, so a button seen a moment ago may be gone when pressed.
    if sb.visible(browser, "hide-word"):
        sb.press_if_still_shown(browser, "hide-word")
    if sb.visible(browser, "done-button"):
        sb.press_if_still_shown(browser, "done-button")
    elif sb.visible(browser, "vote-list") and not browser.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"):
        candidates = sb.attributes_of_all(browser, "#vote-list button.vote", "data-player")
        if candidates:
            sb.vote_for(browser, bot if bot in candidates else candidates[0])


def play_to_game_over(pages, bot, watcher):
    deadline = time.monotonic() + 90
    while not sb.visible(watcher, "game-over"):
        sb.check(time.monotonic() < deadline, "the game over within 90 s")
        for page in pages:
            act(page, bot)


def run(browsers, args):
    url = args.url
    pages = {}
    for index, name in enumerate(NAMES):
        browser = sb.launch(sb.PHONE if index != 2 else sb.LAPTOP, "en-US")
        browsers.append(browser)
        pages[name] = browser
        sb.join(browser, url, name)
    ids = {name: sb.my_id(page) for name, page in pages.items()}
    olive, amy, cleo = pages["Olive"], pages["Amy"], pages["Cleo"]
    sb.wait(olive, lambda b: sb.seat_count(b) == 5, "four people and a bot")
    bot = olive.execute_script(
        "return [...document.querySelectorAll('#seats li')].find((li) => li.querySelector('.badge.bot')).dataset.player"
    )
    sb.press(olive, sb.by_id(olive, "start-button"))
    words = {name: sb.take_dealt_word(page) for name, page in pages.items()}

    # Cleo's tab is lost; she comes back on another phone that holds no seat, and types her name.
    lose_tab(cleo)
    sb.wait(olive, lambda b: "is-away" in seat_class(b, ids["Cleo"]), "Cleo away on the owner's page")
    phone = sb.launch(sb.PHONE, "en-US")
    browsers.append(phone)
    sb.record_frames(phone)
    phone.get(url + "/")
    sb.wait(phone, lambda b: sb.visible(b, "join-name"), "the join form on Cleo's other phone")
    seat_number = sb.text_at(olive, f'#seats li[data-player="{ids["Cleo"]}"] .seat-number')

    def asked(claimer):
        sb.wait(phone, lambda b: sb.visible(b, "claim-wait"), "the claim waits for the owner")
        sb.wait(olive, lambda b: b.execute_script("return document.getElementById('claim-dialog').open"), "asked")
        question = sb.text_of(olive, "claim-question")
        sb.check(question == f"{claimer} wants seat {seat_number} back — allow?", f"the owner is asked {question!r}")
        # Nothing of the seat before the owner says yes: no welcome, no word.
        seated = [f for f in sb.frames(phone) if f.get("type") == "deal" or (f.get("type") == "welcome" and f.get("you"))]
        sb.check(not seated, f"no seat or word before the answer: {seated}")

    # Her name matches the away seat: the room is asked, and the owner refuses (a neighbour could type a name).
    sb.by_id(phone, "join-name").send_keys("Cleo")
    sb.press(phone, sb.by_id(phone, "join-button"))
    asked("Cleo")
    sb.press(olive, sb.by_id(olive, "claim-deny"))
    sb.wait(phone, lambda b: sb.visible(b, "join-form"), "refused: back at the door")
    sb.check(sb.text_of(phone, "join-error") == "The room did not give you the seat back", "the phone is told")

    # Under another name the game is running, so the phone watches it and offers "That's me" on the away seat.
    name = sb.by_id(phone, "join-name")
    name.clear()
    name.send_keys("Cleo B")
    sb.press(phone, sb.by_id(phone, "join-button"))
    sb.wait(phone, lambda b: sb.visible(b, "watch"), "the phone watches the running game")
    sb.wait(phone, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#watch-seats li")) == 5, "the table watched")
    claim_buttons = sb.attributes_of_all(phone, "#watch-seats button.thats-me", "data-claim")
    sb.check(claim_buttons == [ids["Cleo"]], f"That's me is offered on the away seat only: {claim_buttons}")
    sb.press(phone, phone.find_element(By.CSS_SELECTOR, "#watch-seats button.thats-me"))
    asked("Cleo B")
    sb.press(olive, sb.by_id(olive, "claim-allow"))
    sb.wait(olive, lambda b: not b.execute_script("return document.getElementById('claim-dialog').open"), "closed")
    sb.wait(phone, lambda b: sb.visible(b, "game"), "Cleo seated again on the other phone")
    sb.check(sb.my_id(phone) == ids["Cleo"], "the same seat")
    sb.check(sb.take_dealt_word(phone) == words["Cleo"], "the same word on the other phone")
    # The old phone's seat is gone: opening the page there asks to join again.
    cleo.get(url + "/")
    sb.wait(cleo, lambda b: sb.visible(b, "join-form"), "the old phone back at the door")
    sb.check(sb.text_of(cleo, "join-error") == "Your old seat expired; join again", "the old phone is told why")
    pages["Cleo"] = phone

    play_to_game_over(list(pages.values()), bot, olive)

    # The owner's tab is lost at game over: after 30 s away, Amy owns the room, and every page says so.
    lose_tab(olive)
    sb.wait(
        amy,
        lambda b: "is-away" in seat_class(b, ids["Olive"]),
        "Olive away on Amy's page",
    )
    sb.wait(
        amy,
        lambda b: sb.event_count(b, "You are now the owner — Olive was away") == 1,
        "ownership handed to Amy",
        timeout=HANDOVER_DEADLINE,
    )
    sb.check(sb.text_at(amy, f'#seats li[data-player="{ids["Amy"]}"] .badge.owner'), "the ★ on Amy's seat")
    # Said where the phone's holder looks, with why: the first line of the action card, not only the events.
    sb.check(sb.text_of(amy, "owner-news") == "You are now the owner — Olive was away", "Amy's card says why")
    sb.wait(pages["Ben"], lambda b: sb.event_count(b, "Amy is now the owner — Olive was away") == 1, "Ben is told")
    sb.check(sb.text_of(pages["Ben"], "owner-news") == "Amy is now the owner — Olive was away", "Ben's card says why")
    sb.screenshot(amy, args.screenshots, "owner-moved-en.png")

    # Amy plays again from the bottom of her page; Olive's away seat is not dealt in.
    start = sb.by_id(amy, "start-button")
    amy.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    amy.execute_script("arguments[0].click()", start)
    sb.take_dealt_word(amy, "after Play again from far down the page")
    sb.wait(
        amy,
        lambda b: sb.text_at(b, f'#seats li[data-player="{ids["Olive"]}"] .badge.sitting-out'),
        "Olive's seat shown as not dealt",
    )

    # Olive comes back in a new tab: seated, not the owner, and not in this game.
    olive.get(url + "/")
    sb.wait(olive, lambda b: sb.visible(b, "game"), "Olive back in a new tab")
    sb.check(sb.my_id(olive) == ids["Olive"], "Olive's own seat")
    sb.check(not sb.visible(olive, "start-button"), "a returning owner does not take ownership back")
    # She never heard the hand-over: the device kept that her seat owned the room, so the new tab tells her why.
    sb.wait(olive, lambda b: sb.text_of(b, "owner-news") == "Amy is now the owner — you were away", "Olive told why")
    sb.wait(olive, lambda b: "You are not in this game" in sb.text_of(b, "prompt"), "Olive told she sits this out")
    sb.check(not sb.visible(olive, "word-card"), "no word for a seat that was not dealt in")
    sb.at_sizes(olive, "a seat sitting the game out")
    for browser in browsers:
        sb.check_console(browser)


if __name__ == "__main__":
    sb.main(play)
