"""A moderator (法官) runs a whole game from a phone for five players: three phones and two bots.

Against `spyd --host --bots 2 --clues typed`. The owner's phone first asks a player to moderate, who sees the
question and says no (the owner is told); then the owner moderates herself. Every page says who the moderator is
and counts five players, not six. The moderator types the pair, starts, pauses and resumes the timers, passes the
turn of a phone that lost the network on its turn (the phone comes back), sees each player's word and role from the
deal, each ballot as it comes in, and at game over kicks a bot. All along no player page holds another player's word: not in its document, not in its storage, not in any frame the host sent it (and
no `moderator_view` frame at all); its word is the one the moderator's screen shows for it, and the reveal matches.
"""


import spybrowser as sb
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

PAIR = ("婚紗", "禮服")
PLAYERS = ["阿明", "小美", "老王"]
CLUES = iter(["每天都看得到", "跟生活有關", "很多人喜歡", "不算太貴", "大小剛好", "常常聽到", "跟家人有關", "可以分享"] * 6)


def run(args):
    browsers = []
    try:
        play(browsers, args)
    finally:
        for browser in browsers:
            browser.quit()


def page_text(browser):
    """Everything the document holds, shown or not, and what the page keeps in its storage."""
    return browser.execute_script(
        "return document.documentElement.outerHTML + '\\n' + document.title + '\\n'"
        " + JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })"
    )


def moderator_words(browser):
    """The moderator's screen: player id -> (role badge, word)."""
    return browser.execute_script(
        """
        return Object.fromEntries([...document.querySelectorAll("#moderator-players li[data-player]")].map((li) =>
          [li.dataset.player, [li.querySelector(".badge.role").textContent, li.querySelector(".reveal-word").textContent]]));
        """
    )


def player_step(browser):
    """A player's own move: hide the dealt word, a clue, a ballot, a guess. Returns what it did, or ""."""
    if sb.visible(browser, "hide-word"):
        sb.press(browser, sb.by_id(browser, "hide-word"))
        return "hide"
    if sb.visible(browser, "clue-form"):
        box = sb.by_id(browser, "clue-input")
        box.clear()
        box.send_keys(next(CLUES))
        box.submit()
        sb.wait(browser, lambda b: not sb.visible(b, "clue-form"), "the clue taken")
        return "clue"
    if sb.visible(browser, "vote-list") and not browser.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"):
        buttons = sb.vote_buttons(browser)
        if buttons:
            sb.vote_for(browser, buttons[0].get_attribute("data-player"))
            return "vote"
    if sb.visible(browser, "guess-form"):
        box = sb.by_id(browser, "guess-input")
        box.send_keys("不知道")
        box.submit()
        return "guess"
    return ""


class Secrecy:
    """Holds each player page to its own word: checked after every step, and over every frame at the end."""

    def __init__(self, pages):
        self.pages = pages  # id -> browser
        self.words = {}  # id -> the word its page was shown
        self.checks = 0

    def check(self, where):
        for pid, browser in self.pages.items():
            word = self.words.get(pid)
            if word is None:
                # Before its word is read, the page may hold neither.
                others = set(PAIR) if not sb.visible(browser, "word-card") else set()
            else:
                others = set(PAIR) - {word}
            text = page_text(browser)
            if sb.visible(browser, "game-over"):
                continue
            for other in others:
                sb.check(other not in text, f"{where}: {pid}'s page holds {other!r}, not its word")
            sb.check(not browser.find_elements(By.ID, "moderator-secret"), f"{where}: {pid}'s page has a moderator's screen")
            self.checks += 1

    def check_frames(self):
        for pid, browser in self.pages.items():
            received = sb.frames(browser)
            sb.check(not [f for f in received if f.get("type") == "moderator_view"], f"{pid} was sent a moderator_view")
            own = self.words[pid]
            for frame in sb.before_game_over(received):
                if frame.get("type") == "deal":
                    sb.check(frame.get("word") == own, f"{pid}'s deal is its own word: {frame}")
                    continue
                sb.check_no_word(frame, set(PAIR) - {own}, f"a frame to {pid}")
        return sum(len(sb.frames(b)) for b in self.pages.values())


def play(browsers, args):
    moderator = sb.launch(sb.PHONE, "zh-TW")
    browsers.append(moderator)
    sb.record_frames(moderator)
    mia = sb.join(moderator, args.url, "Mia")
    pages = {}
    for name in PLAYERS:
        browser = sb.launch(sb.PHONE, "zh-TW")
        browsers.append(browser)
        sb.record_frames(browser)
        pages[sb.join(browser, args.url, name)] = browser
    sb.wait(moderator, lambda b: sb.seat_count(b) == 6, "three phones, two bots and the owner")
    first = next(iter(pages))

    # Asked, the player says no; the owner is told.
    sb.wait(moderator, lambda b: sb.visible(b, "moderator-ask"), "the owner's moderator controls")
    Select(sb.by_id(moderator, "moderator-pick")).select_by_value(first)
    sb.press(moderator, sb.by_id(moderator, "moderator-ask"))
    asked = pages[first]
    sb.wait(asked, lambda b: b.execute_script("return document.getElementById('moderator-dialog').open"), "the question")
    question = sb.text_of(asked, "moderator-question")
    sb.check(question.startswith(f"房主請 {PLAYERS[0]} 當法官"), f"the question: {question!r}")
    sb.check(sb.focused(asked) == "moderator-accept", "the question has the focus")
    sb.screenshot(asked, args.screenshots, "moderator-asked-zh.png")
    sb.press(asked, sb.by_id(asked, "moderator-decline"))
    sb.wait(asked, lambda b: not b.execute_script("return document.getElementById('moderator-dialog').open"), "answered")
    sb.wait(moderator, lambda b: f"{PLAYERS[0]} 不當法官" in sb.text_of(b, "notice"), "the owner told of the no")

    # The owner moderates herself: everyone sees it, and the table counts five players.
    sb.press(moderator, sb.by_id(moderator, "moderator-me"))
    for pid, browser in [(mia, moderator)] + list(pages.items()):
        sb.wait(browser, lambda b: sb.text_at(b, "#moderator-line") == "法官：Mia（不算在玩家人數內）", f"{pid} sees the moderator")
        sb.wait(browser, lambda b: sb.text_of(b, "table-size").startswith("5 位玩家"), f"{pid} counts five players")
        sb.check("法官" in sb.text_at(browser, f'#seats li[data-player="{mia}"]'), "the moderator's seat is marked")
    sb.check(not sb.visible(pages[first], "start-button"), "a player has no Start")

    # The pair, typed once; the moderator alone sees it.
    sb.by_id(moderator, "moderator-civilian").send_keys(PAIR[0])
    sb.by_id(moderator, "moderator-spy").send_keys(PAIR[1])
    sb.press(moderator, sb.by_id(moderator, "moderator-pair-send"))
    sb.wait(moderator, lambda b: sb.text_at(b, "#moderator-next") == f"下一局：平民詞 {PAIR[0]} · 臥底詞 {PAIR[1]}", "the pair taken")
    sb.wait(moderator, lambda b: sb.by_id(b, "moderator-civilian").get_attribute("value") == "", "the pair's fields emptied")
    secrecy = Secrecy(pages)
    secrecy.check("the pair typed")
    sb.at_sizes(moderator, "the moderator's lobby")
    sb.press(moderator, sb.by_id(moderator, "start-button"))

    # The deal: the moderator sees all five; each page's word is the one shown for it.
    sb.wait(moderator, lambda b: len(moderator_words(b)) == 5, "every player's word on the moderator's screen")
    sb.check(not sb.visible(moderator, "word-card"), "the moderator has no word")
    seen = moderator_words(moderator)
    sb.check({word for _, word in seen.values()} == set(PAIR), f"the moderator sees both words: {seen}")
    secrecy.words = {pid: seen[pid][1] for pid in pages}
    for pid, browser in pages.items():
        secrecy.check("the deal")
        secrecy.words[pid] = sb.take_dealt_word(browser)
        sb.check(seen[pid][1] == secrecy.words[pid], f"{pid}: shown {secrecy.words[pid]}, the moderator sees {seen[pid]}")
    secrecy.check("the words hidden")
    sb.screenshot(moderator, args.screenshots, "moderator-screen-zh.png")
    sb.at_sizes(moderator, "the moderator's screen")

    # Pause and resume: every page hears of it.
    sb.press(moderator, sb.by_id(moderator, "moderator-pause"))
    sb.wait(moderator, lambda b: sb.text_of(b, "moderator-pause") == "繼續計時", "paused")
    for browser in pages.values():
        sb.wait(browser, lambda b: sb.event_count(b, "法官暫停了計時") == 1, "a player told of the pause")
    sb.press(moderator, sb.by_id(moderator, "moderator-pause"))
    sb.wait(moderator, lambda b: sb.text_of(b, "moderator-pause") == "暫停計時", "resumed")

    # A phone loses the network on its turn: the moderator passes it, and the phone comes back to its seat.
    speaker = sb.wait(moderator, lambda b: next((pid for pid, p in pages.items() if sb.visible(p, "clue-form")), None), "a phone's turn")
    lost = pages[speaker]
    lost.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    lost.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    sb.drop_connection(lost)
    name = PLAYERS[list(pages).index(speaker)]
    sb.wait(moderator, lambda b: sb.text_at(b, "#moderator-pass") == f"跳過 {name}（離線）", "the away speaker's turn offered")
    sb.press(moderator, sb.by_id(moderator, "moderator-pass"))
    sb.wait(moderator, lambda b: not b.find_elements(By.ID, "moderator-pass"), "the turn passed")
    lost.execute_cdp_cmd("Network.emulateNetworkConditions", dict(offline, offline=False))
    sb.wait(lost, lambda b: sb.text_of(b, "link") == "已連線" and not sb.visible(b, "clue-form"), "the phone back, its turn gone")
    sb.wait(moderator, lambda b: "離線" not in sb.text_at(b, f'#seats li[data-player="{speaker}"]'), "the phone back at the table")

    moves = []
    ballots_seen = 0
    while not sb.visible(moderator, "game-over"):
        sb.check(len(moves) < 300, "the game ends")
        did = ""
        for pid, browser in pages.items():
            move = player_step(browser)
            if move:
                moves.append(move)
                did = move
                secrecy.check(f"{pid} after {move}")
                if move == "vote":
                    # The ballot shows on the moderator's screen as it comes in, with its voter's name.
                    name = PLAYERS[list(pages).index(pid)]
                    sb.wait(moderator, lambda b: sb.visible(b, "game-over") or sb.visible(b, "result")
                            or name in (sb.text_at(b, "#moderator-ballots") or ""), f"{name}'s ballot on the moderator's screen")
                    ballots_seen += 1
        if not did:
            sb.wait(moderator, lambda b: sb.visible(b, "game-over") or any(
                sb.visible(p, "clue-form") or sb.visible(p, "guess-form")
                or (sb.visible(p, "vote-list") and not p.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"))
                for p in pages.values()), "a move for a player", timeout=90)
    sb.check(moves.count("clue") >= 2 and moves.count("vote") >= 3, f"clues and ballots: {moves}")
    sb.check(ballots_seen >= 3, "ballots seen coming in")

    # Game over: the reveal matches what the moderator saw all along.
    reveal = moderator.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#reveal li')].map((li) =>"
        " [li.dataset.player, li.querySelector('.reveal-word').textContent]))"
    )
    sb.check(reveal == {pid: word for pid, (_, word) in seen.items()}, f"the reveal {reveal} is what the moderator saw {seen}")
    total = secrecy.check_frames()

    # The moderator kicks a bot after the game.
    bot = moderator.execute_script("return [...document.querySelectorAll('#seats li')].find((li) => li.innerText.includes('電腦')).dataset.player")
    sb.press(moderator, moderator.find_element(By.CSS_SELECTOR, f'#seats li[data-player="{bot}"] button.kick'))
    sb.answer_dialog(moderator, yes=True)
    sb.wait(moderator, lambda b: sb.seat_count(b) == 5, "the bot kicked")
    sb.check_console(moderator)
    for pid, browser in pages.items():
        # The phone whose network was cut was refused its reconnections meanwhile, and said so.
        sb.check_console(browser, allowed=("/qr.svg", "ERR_INTERNET_DISCONNECTED") if pid == speaker else ("/qr.svg",))
    print(f"{secrecy.checks} page states and {total} frames held to one word; {ballots_seen} ballots seen live")


if __name__ == "__main__":
    sb.main(run)
