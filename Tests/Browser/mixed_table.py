"""A shared page with two players, a phone of its own and two bots play a typed game to game over.

Against `spyd --host --bots 2 --clues typed`. The shared page takes two seats (the second with "Add a player on
this device"); the phone and the bots see four ordinary seats plus the phone's own. Mid-game the shared page is
reloaded: both of its seats come back on the one page, without showing a word by themselves. Typed clues and ballots
of the shared seats are given behind their pass screens; the shared page's document never holds two different words.
"""

import passplay as pp
import spybrowser as sb
from selenium.webdriver.common.by import By

SHARED = ["阿明", "小美"]
CLUES = iter(["每天都看得到", "跟生活有關", "很多人喜歡", "不算太貴", "大小剛好", "常常聽到", "跟家人有關", "可以分享"] * 4)


def run(args):
    shared = sb.launch(sb.PHONE, "zh-TW")
    phone = None
    try:
        phone = sb.launch(sb.PHONE, "zh-TW")
        play(shared, phone, args)
    finally:
        shared.quit()
        if phone:
            phone.quit()


def phone_step(phone):
    """The phone's own moves: hide its word, a clue, a ballot; returns whether it did one."""
    if sb.visible(phone, "hide-word"):
        sb.press(phone, sb.by_id(phone, "hide-word"))
        return True
    if sb.visible(phone, "clue-form"):
        box = sb.by_id(phone, "clue-input")
        box.clear()
        box.send_keys(next(CLUES))
        box.submit()
        sb.wait(phone, lambda b: not sb.visible(b, "clue-form"), "the phone's clue taken")
        return True
    if sb.visible(phone, "vote-list") and not phone.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"):
        buttons = sb.vote_buttons(phone)
        if buttons:
            sb.vote_for(phone, buttons[0].get_attribute("data-player"))
            return True
    if sb.visible(phone, "guess-form"):
        box = sb.by_id(phone, "guess-input")
        box.send_keys("不知道")
        box.submit()
        return True
    return False


def play(shared, phone, args):
    sb.join(shared, args.url, SHARED[0])
    pp.add_seat(shared, SHARED[1])
    sb.join(phone, args.url, "手機")
    sb.wait(phone, lambda b: sb.seat_count(b) == 5, "two bots, two shared seats and the phone")
    # A phone with one seat shows no list of the device's seats (its seat is "you" in the seat list); the shared
    # page lists its two.
    sb.check(not sb.visible(phone, "device-seat-list"), "a phone holding one seat lists no device seats")
    sb.check(pp.device_names(shared) == SHARED[:2], "the shared page lists its two seats")
    sb.check(sb.visible(shared, "start-button"), "the page that joined first owns the room")
    sb.press(shared, sb.by_id(shared, "start-button"))

    snapshots = pp.Snapshots()
    seen = {}
    # The deal on the shared page: two pass screens.
    while len(seen) < 2:
        pp.wait_actionable(shared, "the shared page's deal")
        pp.step(shared, snapshots, seen, choose_vote=None)
    sb.check(sorted(seen) == sorted(SHARED), f"both shared seats saw their word: {seen}")

    # A reload mid-game: both seats back on the one page, no word shown by itself.
    ids = pp.device_ids(shared)
    shared.refresh()
    sb.wait(shared, lambda b: sorted(pp.device_ids(b)) == sorted(ids), "both seats back after a reload")
    sb.wait(shared, lambda b: all(
        "離線" not in (sb.text_at(b, f'#seats li[data-player="{pid}"]') or "離線") for pid in ids),
        "both seats connected at the table")
    snapshots.take(shared, "after the reload")
    sb.check(pp.shown_word_text(shared) is None, "a reload shows no word by itself")
    # A seat's typed clue is public, so its box may show at once; anything private waits behind a pass screen.
    sb.check(pp.actionable(shared) in ("", "pass", "input"), "after the reload only pass screens, nothing private")

    def choose(name, candidates):
        return candidates[0]

    done = []
    while pp.actionable(shared) != "over":
        sb.check(len(done) < 400, "the game ends")
        did = phone_step(phone)
        if pp.actionable(shared) not in ("", "over"):
            done.append(pp.step(shared, snapshots, seen, choose, clue_text=lambda name: next(CLUES)))
            did = True
        if not did:
            sb.wait(shared, lambda b: pp.actionable(b) or phone_step(phone), "a move on either page", timeout=90)
    sb.check(done.count("input") >= 2 and done.count("vote") >= 2, f"typed clues and ballots of both seats: {done}")
    snapshots.take(shared, "game over")
    snapshots.taken.pop()
    civilian = sb.text_of(shared, "civilian-word")
    spy = sb.text_of(shared, "spy-word")
    checked = snapshots.check_one_word([civilian, spy])
    sb.wait(phone, lambda b: sb.visible(b, "game-over"), "the phone sees game over")
    sb.check_console(shared)
    print(f"{checked} states of the shared page held at most one word")


if __name__ == "__main__":
    sb.main(run)
