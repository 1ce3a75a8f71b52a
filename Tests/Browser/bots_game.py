"""One phone-sized browser player and three bots play a whole typed game to game over.

Against `spyd --host --bots 3 --clues typed`. On the way: the owner's settings, the word shown once and then only
while 忘詞 is held (pointer and keyboard), a reload mid-game and a dropped connection that take back the same seat
and word, a typed clue, the vote with its confirmation (先放過他 first, then 滾吧！), the reveal and both words, no
sideways scrolling at 390×844 and 1280×800 in every phase, the English switch, leaving, and a board (watcher)
beside it that is never sent or shows a word before game over.
"""

import spybrowser as sb
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def check_board_has_no_word(browser, board, player, words, moment):
    """Before game over the board was sent no word (no deal, no word field, no word as a value) and shows no
    reveal."""
    browser.switch_to.window(board)
    revealed = sb.visible(browser, "game-over") or sb.text_of(browser, "civilian-word")
    # Read after the page: if the game ended in between, the page may already show the reveal.
    received = sb.frames(browser)
    before = sb.before_game_over(received)
    for frame in before:
        sb.check(frame.get("type") != "deal", f"the board was dealt a word {moment}: {frame}")
        sb.check_no_word(frame, words, f"a frame to the board {moment}")
    if len(before) == len(received):
        sb.check(not revealed, f"the board shows a reveal {moment}")
    browser.switch_to.window(player)


def move_to_new_tab(browser, url, player, me):
    """The seat belongs to the browser, not the tab: a second tab takes it (the first says so and offers it back),
    and after the owner closes every tab of the page, a new one resumes the seat as owner."""
    first = player
    second = sb.new_tab(browser, sb.PHONE)
    browser.get(url + "/")
    sb.wait(browser, lambda b: sb.visible(b, "game"), "the second tab resumes the seat by itself")
    sb.check(sb.my_id(browser) == me, "the second tab has the same seat")
    browser.switch_to.window(first)
    sb.wait(browser, lambda b: sb.visible(b, "replaced"), "the first tab says the seat went on elsewhere")
    sb.check(not sb.visible(browser, "game"), "the first tab no longer shows the game")
    sb.check("別的分頁" in sb.text_of(browser, "replaced-text"), "the first tab says where the seat went")
    sb.press(browser, sb.by_id(browser, "play-here"))
    sb.wait(browser, lambda b: sb.visible(b, "game") and sb.my_id(b) == me, "Play here takes the seat back")
    browser.switch_to.window(second)
    sb.wait(browser, lambda b: sb.visible(b, "replaced"), "now the second tab steps aside")
    browser.close()
    browser.switch_to.window(first)
    browser.close()
    # Every tab of the page is closed (the board's window remains); the owner opens it again.
    browser.switch_to.window(browser.window_handles[0])
    third = sb.new_tab(browser, sb.PHONE)
    sb.record_frames(browser)
    browser.get(url + "/")
    sb.wait(browser, lambda b: sb.visible(b, "game"), "a new tab resumes the seat without a question")
    sb.check(sb.my_id(browser) == me, "the new tab has the owner's seat")
    sb.check(sb.text_at(browser, "#seats li.is-me .badge.owner"), "the new tab is the room's owner")
    sb.wait(browser, lambda b: sb.visible(b, "start-button"), "the owner may start from the new tab")
    return third


def play(args):
    browser = sb.launch(sb.PHONE, "zh-TW")
    try:
        run(browser, args)
    finally:
        browser.quit()


def run(browser, args):
    url = args.url
    player = browser.current_window_handle

    # The board first, as a watcher, recording every frame it is sent.
    board = sb.new_tab(browser, sb.LAPTOP)
    sb.record_frames(browser)
    browser.get(url + "/board")
    sb.wait(browser, lambda b: sb.text_of(b, "room-code"), "the board's room code")
    room_code = sb.text_of(browser, "room-code")
    sb.check(len(room_code) == 4, f"room code {room_code!r}")
    sb.check(url in sb.text_of(browser, "join-url"), "the board shows the join address")
    browser.switch_to.window(player)

    # Joining: Chinese from the browser's language, a phone-sized page with nothing to scroll sideways.
    sb.record_frames(browser)
    browser.get(url + "/")
    sb.wait(browser, lambda b: sb.visible(b, "join-name"), "the join form")
    sb.check(sb.text_of(browser, "join-heading") == "加入遊戲", "the page speaks Chinese to a zh-TW browser")
    sb.check_strings_complete(browser)
    sb.check_strings_source(url)
    sb.check_sentences_render(browser)
    sb.at_sizes(browser, "join form")
    # Opening a room of one's own is a quiet action under Join, and asks first: one mis-tap seats nobody alone.
    join_box = browser.execute_script("return document.getElementById('join-button').getBoundingClientRect()")
    create_box = browser.execute_script("return document.getElementById('create-button').getBoundingClientRect()")
    sb.check(create_box["top"] >= join_box["bottom"], "開新房間 sits under 加入, not beside it")
    sb.check(
        sb.browser_style(browser, "create-button", "backgroundColor") != sb.browser_style(browser, "join-button", "backgroundColor"),
        "開新房間 does not look like 加入",
    )
    sb.press(browser, sb.by_id(browser, "create-button"))
    question, yes, no = sb.confirm_dialog(browser)
    sb.check("新房間" in question and yes == "開新房間" and no == "取消", f"開新房間 asks {question!r} {yes!r}/{no!r}")
    sb.answer_dialog(browser, yes=False)
    sb.check(sb.visible(browser, "join-form") and not sb.frames(browser), "取消 opens no room and connects nowhere")
    me = sb.join(browser, url, "小明")
    sb.wait(browser, lambda b: sb.seat_count(b) == 4, "three bots seated")
    player = move_to_new_tab(browser, url, player, me)

    # The owner's lobby: a field for every setting the host's room snapshot has, and start.
    settings = browser.find_elements(By.CSS_SELECTOR, "[data-setting]")
    names = sorted(element.get_attribute("data-setting") for element in settings)
    snapshot = [frame for frame in sb.frames(browser) if frame.get("type") == "room"][-1]
    # Settings the page does not offer yet (the terminal client and the protocol do): the page's panel for the
    # evening's rules comes with its rebuild.
    not_on_page_yet = {"spyLastChance"}
    expected = sorted(name for name in snapshot["settings"] if name not in not_on_page_yet)
    sb.check(names == expected, f"settings on the page {names}, in the room {snapshot['settings']}")
    sb.check(sb.by_id(browser, "settings-fields").is_enabled(), "the owner may change settings")
    # The host lists its bank's categories: the owner ticks one, and the room's settings name it; then all again.
    welcome = next(frame for frame in sb.frames(browser) if frame.get("type") == "welcome")
    sb.check(welcome.get("categories"), "spyd lists its bank's categories in welcome")
    picks = browser.find_elements(By.CSS_SELECTOR, "#category-list input[data-category]")
    sb.check(picks, "a checkbox per category of the host's bank")
    name = picks[0].get_attribute("data-category")
    sb.press(browser, picks[0])
    field = sb.by_id(browser, "set-categories")
    sb.wait(browser, lambda b: field.get_attribute("value") == name, f"the category {name!r} chosen")
    sb.press(browser, browser.find_element(By.CSS_SELECTOR, "#category-list input:checked"))
    sb.wait(browser, lambda b: field.get_attribute("value") == "", "every category again")
    turn = sb.by_id(browser, "set-turnSeconds")
    turn.clear()
    turn.send_keys("60", Keys.TAB)
    sb.wait(browser, lambda b: "發言60秒" in sb.text_of(b, "settings-line"), "the turn timer set to 60 s")
    sb.at_sizes(browser, "lobby")
    sb.press(browser, sb.by_id(browser, "start-button"))

    # The word is shown once, then only while 忘詞 is held.
    word = sb.take_dealt_word(browser)
    sb.check(word, "the player was dealt a word (no blank at this table)")
    sb.check(sb.shown_word(browser) == "", "the word is gone from the page after 記住了")
    sb.check(sb.word_while_holding(browser) == word, "忘詞 held shows the dealt word")
    sb.check(sb.word_while_key_held(browser, Keys.SPACE) == word, "space held on 忘詞 shows the word")
    sb.check(sb.word_while_key_held(browser, Keys.ENTER) == word, "enter held on 忘詞 shows the word")
    sb.check(sb.shown_word(browser) == "", "nothing shows once 忘詞 is let go")
    check_board_has_no_word(browser, board, player, [word], "after the deal")

    # A reload mid-game takes back the same seat and word, and does not flash the word again.
    browser.refresh()
    sb.wait(browser, lambda b: sb.visible(b, "game") and sb.visible(b, "forgot"), "the game back after a reload")
    sb.check(sb.my_id(browser) == me, "the same seat after a reload")
    sb.check(sb.shown_word(browser) == "", "a reload does not show the word by itself")
    sb.check(sb.word_while_holding(browser) == word, "the same word after a reload")
    sb.check(sb.seat_count(browser) == 4, "still four seats after the reload")

    # A dropped connection comes back by itself with the token: same seat, same word.
    sb.drop_connection(browser)
    sb.wait(browser, lambda b: sb.event_count(b, "已重新連線") > 0, "the page reconnected by itself")
    sb.wait(browser, lambda b: sb.text_of(b, "link") == "已連線", "connected again")
    sb.check(sb.my_id(browser) == me, "the same seat after a dropped connection")
    sb.check(sb.word_while_holding(browser) == word, "the same word after a dropped connection")

    sb.at_sizes(browser, "describing")
    clue_sent = False
    dialog_checked = False
    screenshot_taken = False
    while True:
        state = sb.wait(
            browser,
            lambda b: (
                "over" if sb.visible(b, "game-over") else
                "clue" if sb.visible(b, "clue-form") else
                "vote" if sb.visible(b, "vote-list") and not b.find_elements(By.CSS_SELECTOR, "#vote-list .chosen")
                else "guess" if sb.visible(b, "guess-form") else None
            ),
            "my turn, a vote, a guess or the end of the game",
            timeout=90,
        )
        if state == "over":
            break
        if state == "clue":
            box = sb.by_id(browser, "clue-input")
            box.clear()
            box.send_keys("早上會用到" if not clue_sent else "每天都有")
            box.send_keys(Keys.ENTER)
            sb.wait(
                browser,
                lambda b: not sb.visible(b, "clue-form") or sb.text_of(b, "notice"),
                "the clue taken or refused",
            )
            if sb.visible(browser, "clue-form"):
                sb.press(browser, sb.by_id(browser, "pass-button"))
                sb.wait(browser, lambda b: not sb.visible(b, "clue-form"), "the pass taken")
            else:
                # The last clue of a PK can end the game within a second (the players outside it vote at once),
                # and the game's end hides 忘詞 along with the focus on it: the focus is checked while play goes on.
                sb.wait(
                    browser,
                    lambda b: sb.focused(b) == "forgot" or sb.visible(b, "game-over"),
                    "focus on 忘詞 after the clue",
                )
            clue_sent = True
        elif state == "vote":
            sb.at_sizes(browser, "voting")
            candidates = sb.attributes_of_all(browser, "#vote-list button.vote", "data-player")
            sb.check(len(candidates) >= 1, "candidates to vote for")
            sb.check(me not in candidates, "the player cannot vote for themself")
            target = candidates[0]
            target_button = f'#vote-list button[data-player="{target}"]'
            target_name = sb.text_at(browser, f"{target_button} .seat-name")
            if not dialog_checked:
                # A redraw that changes nothing on the list keeps its buttons, so a tap that lands during one is not
                # lost: the button found before a reconnection redraws the page is still the one to press.
                button = browser.find_element(By.CSS_SELECTOR, target_button)
                welcomed = sb.welcomes(browser)
                sb.drop_connection(browser)
                sb.wait(browser, lambda b: sb.welcomes(b) > welcomed and sb.text_of(b, "link") == "已連線",
                        "a reconnection")
                sb.check(sb.event_count(browser, "已重新連線") > 0, "the events say the page reconnected")
                sb.press(browser, button)
                question, yes, no = sb.confirm_dialog(browser)
                sb.check(question == f"確定要讓{target_name}出局嗎？", f"the confirmation asks {question!r}")
                sb.check((yes, no) == ("滾吧！", "先放過他"), f"the answers are {yes!r} / {no!r}")
                if not screenshot_taken:
                    sb.screenshot(browser, args.screenshots, "phone-vote-zh.png")
                    screenshot_taken = True
                sb.answer_dialog(browser, yes=False)
                sb.check(not browser.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"), "先放過他 sends nothing")
                dialog_checked = True
            sb.vote_for(browser, target)
            sb.check_focus_after_vote(browser, target)
            check_board_has_no_word(browser, board, player, [word], "during the vote")
        elif state == "guess":
            sb.by_id(browser, "guess-input").send_keys("咖啡", Keys.ENTER)
            sb.wait(browser, lambda b: not sb.visible(b, "guess-form"), "the guess taken")

    # Game over: the winner, both words, every role, and the player's own word among them.
    winner = sb.text_of(browser, "winner")
    sb.check(winner.endswith("獲勝！"), f"the winner line {winner!r}")
    civilian, spy = sb.text_of(browser, "civilian-word"), sb.text_of(browser, "spy-word")
    sb.check(word in (civilian, spy), f"my word {word!r} is one of {civilian!r} / {spy!r}")
    reveal = browser.find_elements(By.CSS_SELECTOR, "#reveal li")
    sb.check(len(reveal) == 4, f"four players revealed, saw {len(reveal)}")
    mine = sb.text_at(browser, f'#reveal li[data-player="{me}"] .reveal-word')
    sb.check(mine == word, f"the reveal gives me {mine!r}, I was dealt {word!r}")
    sb.check(sb.text_of(browser, "start-button") == "再來一局", "the owner may play again")
    sb.at_sizes(browser, "game over")

    # The board before the reveal was checked on the way; now it shows the reveal too.
    browser.switch_to.window(board)
    sb.wait(browser, lambda b: sb.visible(b, "game-over"), "the board's reveal")
    sb.check(sb.text_of(browser, "civilian-word") == civilian, "the board reveals the civilian word")
    check_board_has_no_word(browser, board, board, [word, civilian, spy], "before game over")
    sb.check(any(f.get("type") == "game_over" for f in sb.frames(browser)), "the board was sent the reveal")
    sb.check(all(f.get("type") != "deal" for f in sb.frames(browser)), "the board is never dealt a word")
    sb.set_size(browser, sb.LAPTOP)
    sb.pick_language(browser, "en")
    sb.wait(browser, lambda b: sb.text_of(b, "now-heading") == "Now", "the board in English")
    sb.screenshot(browser, args.screenshots, "board-game-over-en.png")
    sb.at_sizes(browser, "board at game over", (sb.LAPTOP, sb.PHONE))
    browser.switch_to.window(player)

    # English on a laptop, and play again deals a new game.
    sb.set_size(browser, sb.LAPTOP)
    sb.pick_language(browser, "en")
    sb.wait(browser, lambda b: sb.text_of(b, "start-button") == "Play again", "the page in English")
    sb.check(sb.text_of(browser, "winner").startswith("The "), "the winner line in English")
    sb.screenshot(browser, args.screenshots, "laptop-game-over-en.png")
    # Play again from the bottom of a phone's page: the new word is in view, below the header.
    sb.set_size(browser, sb.PHONE)
    start = sb.by_id(browser, "start-button")
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    sb.check(browser.execute_script("return window.scrollY") > 100, "the owner is scrolled down the page")
    # Pressed as it is (a screen reader's activation does not scroll the page).
    browser.execute_script("arguments[0].click()", start)
    second = sb.take_dealt_word(browser, "after Play again from far down the page")
    sb.check(second is not None, "a word for the second game")
    sb.check("Game 2" in sb.phase_of(browser), f"the header says game 2: {sb.phase_of(browser)!r}")

    # Leaving during a game asks first, then gives the seat up: the tab is back at the door without a token.
    sb.press(browser, sb.by_id(browser, "leave-button"))
    question, yes, no = sb.confirm_dialog(browser)
    sb.check(question == "A game is on: leave and give up your seat?", f"the leave question {question!r}")
    # The question outlives the page's redraws (one per message from the host), which close only a vote's question
    # once voting is over: this tab voted in game 1, and a dropped connection now redraws it several times.
    welcomed = sb.welcomes(browser)
    sb.drop_connection(browser)
    sb.wait(browser, lambda b: sb.welcomes(b) > welcomed and sb.text_of(b, "link") == "connected",
            "reconnected under the question")
    sb.check(sb.event_count(browser, "Reconnected") > 0, "the events say the page reconnected")
    sb.check(sb.dialog_open(browser), "the leave question stays open while the page redraws")
    sb.answer_dialog(browser, yes=False)
    sb.check(sb.visible(browser, "game"), "Stay keeps the seat")
    sb.press(browser, sb.by_id(browser, "leave-button"))
    sb.confirm_dialog(browser)
    sb.answer_dialog(browser, yes=True)
    sb.wait(browser, lambda b: sb.visible(b, "join-form"), "back at the join form after leaving")
    sb.check(not sb.stored_seats(browser), "the seat is forgotten")
    sb.check_console(browser)


if __name__ == "__main__":
    sb.main(play)
