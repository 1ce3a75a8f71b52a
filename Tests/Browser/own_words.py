"""The room's own words and the evening's history, on two phones (390×844) and two bots, against a host this script
starts itself so that it can kill it with SIGKILL and start it again on the same port.

The owner (a Traditional Chinese phone) pastes 30 lines, 5 of them bad, and sees each refusal by its line number
and reason; the other phone (English) sees only the count. Three games are dealt from the room's words only; every
frame the other phone receives is kept, and no word of the list reaches it before the game that deals it is over
(except its own word, in its own deal). At each game over both phones show the evening's history, never before; the
other phone saves it as CSV and JSON. After a kill -9 and a restart, a reloaded page shows the same three games and
the owner's list still holds its pairs; the owner saves it as CSV and clears it. A file is read on the phone into
the box, and one over 48 KiB is refused there.
"""

import csv
import io
import json
import os
import tempfile

import spybrowser as sb
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

GOOD = [
    ("婚紗", "禮服"), ("伴郎", "伴娘"), ("喜餅", "蛋糕"), ("紅包", "禮金"), ("鑽戒", "金戒"),
    ("捧花", "胸花"), ("喜帖", "卡片"), ("證婚人", "主持人"), ("蜜月", "旅行"), ("新房", "套房"),
    ("香檳", "紅酒"), ("西裝", "燕尾服"), ("面紗", "頭紗"), ("婚宴", "喜酒"), ("花童", "伴童"),
    ("誓言", "承諾"), ("戒枕", "抱枕"), ("拱門", "花牆"), ("司儀", "樂團"), ("喜糖", "巧克力"),
    ("相簿", "影片"), ("交杯", "乾杯"), ("禮車", "花車"), ("喜宴", "尾牙"), ("敬酒", "勸酒"),
]
# The 30 lines: the good pairs in the separators people use, and five bad lines at these numbers.
BAD = {
    3: ("新郎", "no_separator", "只有一個詞"),
    8: ("蘋果,蘋果汁", "contains_other", "一個詞包含另一個"),
    12: ("同樣/同樣", "same_words", "兩個詞一樣"),
    17: ("禮服,婚紗", "duplicate", "和第 1 行是同一組"),
    25: ("喜餅,", "missing_word", "一邊少了詞"),
}
SEPARATORS = [",", "\t", "/", "——", "，"]


def pasted_lines():
    lines, good = [], iter(GOOD)
    for number in range(1, 31):
        if number in BAD:
            lines.append(BAD[number][0])
        else:
            civilian, spy = next(good)
            lines.append(f"{civilian}{SEPARATORS[number % len(SEPARATORS)]}{spy}")
    return lines


LIST_WORDS = {word for pair in GOOD for word in pair}


def run(args):
    host = sb.Host(args.spyd, json.loads(args.spyd_args)).start()
    owner = other = None
    downloads = tempfile.mkdtemp(prefix="spy-downloads-")
    try:
        owner = sb.launch(sb.PHONE, "zh-TW")
        other = sb.launch(sb.PHONE, "en")
        for browser in (owner, other):
            sb.record_frames(browser)
        for browser in (owner, other):
            browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        play(host, owner, other, downloads, args)
    except AssertionError:
        print("--- spyd log ---\n" + host.log())
        raise
    finally:
        for browser in (owner, other):
            if browser:
                browser.quit()
        host.stop()


def refusals(browser):
    """The refused lines the owner's page lists: {line number: text}."""
    return browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#words-refused li')]"
        ".map((li) => [li.dataset.line, li.innerText.trim()]))"
    )


def step(browser):
    """One move of a phone in a spoken game: hide the word, say done, vote; returns whether it made one."""
    if sb.visible(browser, "hide-word"):
        return sb.press_if_still_shown(browser, "hide-word")
    if sb.visible(browser, "turn-spoken"):
        return sb.press_if_still_shown(browser, "done-button")
    if sb.visible(browser, "vote-list") and not browser.find_elements(By.CSS_SELECTOR, "#vote-list .chosen"):
        buttons = sb.vote_buttons(browser)
        if buttons and not sb.dialog_open(browser):
            sb.press(browser, buttons[0])
            if sb.wait(browser, lambda b: sb.dialog_open(b) or not sb.visible(b, "vote-list"), "the vote's question"):
                if sb.dialog_open(browser):
                    sb.answer_dialog(browser, yes=True)
            return True
    return False


def over(browser):
    return sb.visible(browser, "game-over")


def play_game(owner, other, number):
    sb.press(owner, sb.by_id(owner, "start-button"))
    for browser in (owner, other):
        sb.wait(browser, lambda b: sb.visible(b, "word-card") and not over(b), f"game {number} dealt")
        sb.check(not sb.visible(browser, "history"), "no history while a game runs")
        sb.check(not sb.visible(browser, "words"), "the list's card is away during a game")
    moves = 0
    while not (over(owner) and over(other)):
        sb.check(moves < 200, f"game {number} ends")
        moved = step(owner) or step(other)
        if moved:
            moves += 1
        else:
            sb.wait(owner, lambda b: over(b) and over(other) or step(b) or step(other), f"a move in game {number}", 60)
            moves += 1
    for browser in (owner, other):
        sb.wait(browser, lambda b: sb.attribute_at(b, "#history-list li", "data-game") == str(number),
                f"game {number}'s record on top of the history")


def history_shown(browser):
    """Each game the history card lists, newest first: (number, its text)."""
    return browser.execute_script(
        "return [...document.querySelectorAll('#history-list li.history-game')]"
        ".map((li) => [Number(li.dataset.game), li.innerText.trim()])"
    )


def records(browser):
    """The game records the page received, by number (one sent again replaces its copy)."""
    byGame = {}
    for frame in sb.frames(browser):
        if frame.get("type") == "history":
            for record in frame["games"]:
                byGame[record["game"]] = record
    return byGame


def picture(browser, directory, name, element_id):
    """A screenshot with `element_id` ending at the bottom of the screen (docs/img with SPY_BROWSER_SCREENSHOTS)."""
    if not directory:
        return
    os.makedirs(directory, exist_ok=True)
    browser.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'end'})", element_id)
    path = os.path.join(directory, name)
    browser.save_screenshot(path)
    print(f"screenshot {path}")


def check_list_secret(frames, me, dealt_by_game):
    """No word of the list in `frames` (every frame a non-owner page received), except the page's own word in its
    deal and, from its game_over on, the words of a game that is over."""
    over_games = set()
    game_of = {word: game for game, pair in dealt_by_game.items() for word in pair}
    for index, frame in enumerate(frames):
        if frame.get("type") == "game_over":
            over_games.add(frame["game"])
        for key, value in sb.fields(frame):
            if value is None or value not in LIST_WORDS:
                continue
            if frame.get("type") == "deal" and key == "word":
                continue
            sb.check(game_of.get(value) in over_games,
                     f"frame {index} to {me} carries the list word {value!r} before its game is over: {frame}")


def play(host, owner, other, downloads, args):
    url = host.url
    sb.join(owner, url, "小明")
    room = sb.wait(owner, lambda b: next((f["room"] for f in sb.frames(b) if f.get("type") == "room"), None), "the room")
    sb.join(other, url, "Ben", room)
    sb.wait(owner, lambda b: sb.seat_count(b) == 4, "two phones and two bots")

    # Everyone sees the list's card; only the owner gets the box.
    sb.wait(other, lambda b: sb.text_of(b, "words-count") == "Our words: none yet", "the count on the other phone")
    sb.check(not sb.visible(other, "words-owner"), "only the owner may paste words")
    sb.check(sb.visible(owner, "words-text"), "the owner's box of pairs")

    # A file is read on the phone into the box; one over the host's 48 KiB is refused before it is read or sent.
    small = os.path.join(downloads, "ours.csv")
    with open(small, "w", encoding="utf-8") as file:
        file.write("\ufeffcivilian,spy\n咖啡,奶茶\n")
    big = os.path.join(downloads, "big.csv")
    with open(big, "w", encoding="utf-8") as file:
        file.write("長頸鹿,斑馬\n" * 4000)
    box = sb.by_id(owner, "words-text")
    sb.by_id(owner, "words-file").send_keys(small)
    sb.wait(owner, lambda b: box.get_attribute("value") == "civilian,spy\n咖啡,奶茶\n", "the file's text in the box")
    sb.by_id(owner, "words-file").send_keys(big)
    sb.wait(owner, lambda b: "超過 48 KiB" in sb.text_of(b, "words-problem"), "the big file refused on the page")
    sb.check(box.get_attribute("value") == "civilian,spy\n咖啡,奶茶\n", "the box keeps what it held")
    sb.check(not any(f.get("type") == "words_report" for f in sb.frames(owner)), "nothing was sent")

    # 30 lines, 5 bad: each refusal by its line number and its reason, the rest kept.
    lines = pasted_lines()
    owner.execute_script("arguments[0].value = arguments[1]", box, "\n".join(lines))
    sb.press(owner, sb.by_id(owner, "words-send"))
    sb.wait(owner, lambda b: sb.visible(b, "words-report"), "the host's answer")
    sb.check(sb.text_of(owner, "words-kept") == "新收了 25 組，清單共有 25 組。有 5 行沒有收：",
             f"the count kept: {sb.text_of(owner, 'words-kept')!r}")
    shown = refusals(owner)
    sb.check(sorted(int(n) for n in shown) == sorted(BAD), f"a refusal for each bad line: {shown}")
    for number, (text, _, reason) in BAD.items():
        entry = shown[str(number)]
        sb.check(entry.startswith(f"第 {number} 行") and reason in entry, f"line {number} refused as {reason}: {entry!r}")
        sb.check(text.rstrip(",") in entry, f"line {number} quotes what was pasted: {entry!r}")
    report = next(f for f in sb.frames(owner) if f.get("type") == "words_report")
    sb.check(sorted(e["line"] for e in report["refused"]) == sorted(BAD)
             and {e["line"]: e["reason"] for e in report["refused"]} == {n: r for n, (_, r, _) in BAD.items()},
             f"the host's report: {report}")
    sb.no_horizontal_scroll(owner, "the owner's words card")
    sb.check_accessible(owner, "the owner's words card")
    picture(owner, args.screenshots, "own-words-zh.png", "words-report")

    # The other phone sees the count only.
    sb.wait(other, lambda b: sb.text_of(b, "words-count") == "Our words: 25 pairs", "25 pairs on the other phone")
    sb.wait(owner, lambda b: sb.text_of(b, "words-count") == "我們的詞：25 組", "25 pairs on the owner's phone")

    # Every game from the room's words alone.
    Select(sb.by_id(owner, "set-wordSource")).select_by_value("ours")
    sb.wait(other, lambda b: sb.text_of(b, "words-source") == "Words from: our words only", "the word source on the other phone")
    for number in (1, 2, 3):
        play_game(owner, other, number)
        sb.wait(owner, lambda b: sb.visible(b, "start-button"), "the owner may start again")

    # The history of the evening: three games, newest first, as the host recorded them.
    byGame = records(other)
    sb.check(sorted(byGame) == [1, 2, 3], f"three records: {sorted(byGame)}")
    dealt = {game: (r["civilianWord"], r["spyWord"]) for game, r in byGame.items()}
    pairs = {frozenset(pair) for pair in GOOD}
    sb.check(all(frozenset(pair) in pairs for pair in dealt.values()) and len({frozenset(p) for p in dealt.values()}) == 3,
             f"three different pairs of the list dealt: {dealt}")
    shown = history_shown(other)
    sb.check([n for n, _ in shown] == [3, 2, 1], f"the history lists games 3, 2, 1: {shown}")
    for number, text in shown:
        record = byGame[number]
        sb.check(f"{record['civilianWord']} / {record['spyWord']}" in text, f"game {number}'s pair in {text!r}")
        for out in record["outs"]:
            name = next(p["name"] for p in record["players"] if p["player"] == out["player"])
            if out["reason"] == "voted":
                sb.check(f"Round {out['round']}: {name} voted out with {out['votes']} vote" in text,
                         f"game {number}: {name} out in round {out['round']} in {text!r}")
        for player in record["players"]:
            sb.check(f"{player['name']} +{player['points']}" in text, f"game {number}: {player['name']}'s points")
    sb.no_horizontal_scroll(other, "the history")
    sb.check_accessible(other, "the history")
    sb.check_accessible(owner, "the owner at game over")
    picture(other, args.screenshots, "history-en.png", "history-list")

    # Saved from the page, as CSV and JSON.
    sb.press(other, sb.by_id(other, "history-csv"))
    sb.press(other, sb.by_id(other, "history-json"))
    csv_path = os.path.join(downloads, f"history-{room}.csv")
    json_path = os.path.join(downloads, f"history-{room}.json")
    sb.wait(other, lambda b: os.path.exists(csv_path) and os.path.exists(json_path), "both files saved")
    with open(json_path, encoding="utf-8") as file:
        saved = json.load(file)
    sb.check(saved["room"] == room and {g["game"]: g for g in saved["games"]} == byGame, "the JSON holds the records")
    with open(csv_path, encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(io.StringIO(file.read())))
    sb.check(len(rows) == sum(len(r["players"]) for r in byGame.values()), f"a row per player per game: {len(rows)}")
    sb.check({(int(r["game"]), r["civilianWord"], r["spyWord"]) for r in rows} == {(g, *p) for g, p in dealt.items()},
             "the CSV names each game's pair")

    # No word of the list reached the other phone before the game that dealt it was over.
    received = sb.frames(other)
    check_list_secret(received, "Ben", dealt)
    other_dom = other.execute_script("return document.body.innerText")
    undealt = LIST_WORDS - {word for pair in dealt.values() for word in pair}
    sb.check(not [w for w in undealt if w in other_dom], "no undealt list word on the other phone's page")

    # kill -9 and a restart on the same port: a reloaded page shows the same evening; the list is still there.
    host.kill9()
    host.start()
    other.refresh()
    sb.wait(other, lambda b: [n for n, _ in history_shown(b)] == [3, 2, 1], "the history after the restart")
    sb.check(history_shown(other) == shown, "the same three games after the restart")
    sb.wait(owner, lambda b: sb.text_of(b, "link") in ("已連線", "") and sb.visible(b, "words"), "the owner back")
    sb.wait(owner, lambda b: sb.text_of(b, "words-count") == "我們的詞：25 組", "the list after the restart")

    # The owner saves the list as CSV (the host's export), then clears it after saying yes.
    sb.press(owner, sb.by_id(owner, "words-export"))
    words_path = os.path.join(downloads, f"words-{room}.csv")
    sb.wait(owner, lambda b: os.path.exists(words_path), "the list saved")
    with open(words_path, encoding="utf-8", newline="") as file:
        saved_pairs = [(r["civilian"], r["spy"]) for r in csv.DictReader(file)]
    sb.check(saved_pairs == GOOD, f"the CSV holds the 25 pairs in the order they were added: {saved_pairs}")
    sb.press(owner, sb.by_id(owner, "words-clear"))
    question, yes, _ = sb.confirm_dialog(owner)
    sb.check("25 組" in question, f"the clear asks first: {question!r}")
    sb.answer_dialog(owner, yes=False)
    sb.check(sb.text_of(owner, "words-count") == "我們的詞：25 組", "取消 keeps the list")
    sb.press(owner, sb.by_id(owner, "words-clear"))
    sb.confirm_dialog(owner)
    sb.answer_dialog(owner, yes=True)
    sb.wait(other, lambda b: sb.text_of(b, "words-count") == "Our words: none yet", "the list gone on the other phone")
    sb.check_console(owner)
    sb.check_console(other)
    print(f"3 games from our words; {len(received)} frames of the other phone held no list word early")


if __name__ == "__main__":
    sb.main(run)
