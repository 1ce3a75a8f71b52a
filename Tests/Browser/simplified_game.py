"""A whole game in Simplified Chinese: one phone whose browser asks for zh-CN (Accept-Language) and three bots, with
the board beside it.

Against `spyd --host --bots 3 --clues typed --language en`. The page and the board speak 简体中文 by themselves
(`<html lang="zh-Hans">`, mainland fonts), and no Traditional-only character (Tests/Support/Fixtures/) is ever in their
text: the sentences, the settings, the events, the vote's question, the reveal, the board. The owner picks 简体中文
as the words' language: a host whose bank has Simplified pairs deals them (and the whole text is checked with the
words in it); a host without takes English words, and the refusal is said in Simplified Chinese. A room language
the page does not know shows as what it is. Then a pick from the header's menu: 繁體中文, remembered across a
reload; `?lang=zh-CN` outranks it for one page, and a pick drops it from the address.
"""

import json
import os

import spybrowser as sb
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

HAN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support", "Fixtures")
TV = (1920, 1080)


def han_table(name):
    """The characters of a script table of Tests/Support/Fixtures/: the first of each line not a `#` comment."""
    with open(os.path.join(HAN, name), encoding="utf-8") as table:
        return {line.strip()[0] for line in table if line.strip() and not line.startswith("#")}


TRADITIONAL_ONLY = han_table("traditional-only.txt")
SIMPLIFIED_ONLY = han_table("simplified-only.txt")

# Every text of the page: the body's text nodes, shown or not (a hidden section's text shows later), the options
# of its menus, the title and what names its controls. Text marked with another language is left out: the language
# menu names each language in itself (繁體中文).
PAGE_TEXT = """
const page = document.documentElement.lang;
const own = (node) => {
  const marked = node.closest("[lang]");
  return marked === document.documentElement || marked.lang === page;
};
const texts = [document.title];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (node.parentElement && own(node.parentElement)) texts.push(node.data);
}
for (const node of document.querySelectorAll("[aria-label], [placeholder], [alt], [title]")) {
  if (!own(node)) continue;
  for (const name of ["aria-label", "placeholder", "alt", "title"]) {
    if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
  }
}
return texts.join("\\n");
"""


def check_simplified(browser, where):
    """The page is marked zh-Hans, has Simplified text, and has no Traditional-only character."""
    tag = browser.execute_script("return document.documentElement.lang")
    sb.check(tag == "zh-Hans", f"{where}: <html lang={tag!r}>, not zh-Hans")
    text = browser.execute_script(PAGE_TEXT)
    traditional = sorted({ch for ch in text if ch in TRADITIONAL_ONLY})
    if traditional:
        lines = [line for line in text.split("\n") if any(ch in line for ch in traditional)]
        raise AssertionError(f"{where}: Traditional-only {''.join(traditional)} in the page's text: {lines[:8]}")
    sb.check(any(ch in SIMPLIFIED_ONLY for ch in text), f"{where}: no Simplified character on the page")


def rendered_fonts(browser, selector):
    """The fonts Chromium drew the text of `selector` with (DevTools, not CSS: what the machine really used)."""
    browser.execute_cdp_cmd("DOM.enable", {})
    browser.execute_cdp_cmd("CSS.enable", {})
    root = browser.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = browser.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = browser.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return [font["familyName"] for font in fonts]


def check_font(browser, selector, script, where):
    """Han text is drawn with the script's face of a CJK font (SC or TC), not another region's shapes. A machine
    without a CJK font (Debian: fonts-noto-cjk, scripts/install-test-deps.sh) cannot show either, and says so."""
    fonts = rendered_fonts(browser, selector)
    cjk = [name for name in fonts if "CJK" in name or "Han Sans" in name]
    if not cjk:
        print(f"note: no CJK font drew {where} ({fonts}); install fonts-noto-cjk to check the glyph shapes")
        return
    sb.check(all(name.endswith(script) for name in cjk), f"{where} is drawn with {fonts}, not the {script} faces")


def frames_of(browser, kind):
    return [frame for frame in sb.frames(browser) if frame.get("type") == kind]


def room_language(browser):
    return frames_of(browser, "room")[-1]["settings"]["language"]


def choose_word_language(browser):
    """The owner picks 简体中文 as the words' language. Returns the language the room deals in."""
    menu = sb.by_id(browser, "set-language")
    labels = [option.text for option in Select(menu).options]
    sb.check(labels == ["繁体中文", "简体中文", "英文", "繁体中文和英文", "简体中文和英文"], f"word languages {labels}")
    welcome = frames_of(browser, "welcome")[0]
    has_simplified = any(entry.get("language") == "zh-Hans" for entry in welcome.get("categories", []))
    errors = len(frames_of(browser, "error"))
    Select(menu).select_by_value("zh-Hans")
    sb.wait(
        browser,
        lambda b: room_language(b) == "zh-Hans" or len(frames_of(b, "error")) > errors,
        "the host takes or refuses 简体中文 words",
    )
    if has_simplified:
        sb.check(room_language(browser) == "zh-Hans", "a host with Simplified pairs takes 简体中文 words")
        sb.wait(browser, lambda b: menu.get_attribute("value") == "zh-Hans", "the menu shows 简体中文")
        return "zh-Hans"
    if room_language(browser) == "zh-Hans":
        # The host knows the language but its bank has no pairs in it: the game is dealt English words.
        print("note: the host takes zh-Hans but lists no Simplified categories; the words are English")
        Select(menu).select_by_value("en")
        sb.wait(browser, lambda b: room_language(b) == "en", "English words again")
        return "en"
    # A host without the language refuses it: said in Simplified Chinese, and the menu shows the room's again.
    notice = sb.wait(browser, lambda b: sb.text_of(b, "notice"), "the refusal said")
    sb.check(notice in ("主机无法识别这个操作", "设置超出范围"), f"the refusal reads {notice!r}")
    sb.wait(browser, lambda b: menu.get_attribute("value") == "en", "the menu back at the room's English")
    print("note: this host has no zh-Hans words; the game is dealt English words")
    return "en"


def show_unknown_language(browser):
    """A room language the page does not list (a newer host's) is shown by its code, and goes with the next
    snapshot that names a listed one."""
    room = frames_of(browser, "room")[-1]
    room["settings"]["language"] = "yue"
    # A menu being used keeps the player's choice over a snapshot's: the owner is done with it.
    browser.execute_script(
        "document.activeElement.blur();"
        "const socket = window.__spySockets.filter((s) => s.readyState === 1).pop();"
        "socket.onmessage({ data: arguments[0] });",
        json.dumps(room),
    )
    menu = sb.by_id(browser, "set-language")
    sb.wait(browser, lambda b: menu.get_attribute("value") == "yue", "the unknown language chosen in the menu")
    shown = Select(menu).first_selected_option.text
    sb.check(shown == "其他（yue）", f"the unknown language shows as {shown!r}")
    check_simplified(browser, "an unknown room language")
    turn = sb.by_id(browser, "set-turnSeconds")
    turn.clear()
    turn.send_keys("60", Keys.TAB)
    sb.wait(browser, lambda b: "发言60秒" in sb.text_of(b, "settings-line"), "the turn timer set to 60 s")
    sb.wait(browser, lambda b: menu.get_attribute("value") != "yue", "the host's snapshot names its language again")
    sb.check(not browser.find_elements(By.CSS_SELECTOR, "#set-language option[data-unknown]"), "the code's option gone")


def check_board(browser, board, player, where):
    browser.switch_to.window(board)
    check_simplified(browser, f"the board {where}")
    browser.switch_to.window(player)


def play_game(browser, args, board, player, me):
    """Plays to game over: typed clues, every ballot confirmed, a guess if the phone is the blank."""
    clues = 0
    pictured = False
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
        check_simplified(browser, f"the phone, {state}")
        if state == "over":
            return
        if state == "clue":
            box = sb.by_id(browser, "clue-input")
            box.clear()
            box.send_keys("早上会用到" if clues == 0 else "每天都有", Keys.ENTER)
            sb.wait(browser, lambda b: not sb.visible(b, "clue-form") or sb.text_of(b, "notice"), "the clue")
            if sb.visible(browser, "clue-form"):
                check_simplified(browser, "a refused clue")
                sb.press(browser, sb.by_id(browser, "pass-button"))
                sb.wait(browser, lambda b: not sb.visible(b, "clue-form"), "the pass taken")
            clues += 1
        elif state == "vote":
            prompt = sb.text_of(browser, "prompt")
            sb.check(prompt == "选一个人投出局", f"the vote prompt {prompt!r}")
            if not pictured:
                sb.at_sizes(browser, "voting")
            candidates = sb.attributes_of_all(browser, "#vote-list button.vote", "data-player")
            sb.check(candidates and me not in candidates, f"candidates {candidates}")
            target = candidates[0]
            name = sb.text_at(browser, f'#vote-list button[data-player="{target}"] .seat-name')
            sb.press(browser, browser.find_element(By.CSS_SELECTOR, f'#vote-list button[data-player="{target}"]'))
            question, yes, no = sb.confirm_dialog(browser)
            sb.check(question == f"确定要让{name}出局吗？", f"the vote's question {question!r}")
            sb.check((yes, no) == ("滚吧！", "先放过他"), f"the answers {yes!r} / {no!r}")
            check_simplified(browser, "the vote's question")
            if not pictured:
                sb.screenshot(browser, args.screenshots, "phone-vote-zh-hans.png")
                browser.switch_to.window(board)
                sb.set_size(browser, TV)
                sb.wait(browser, lambda b: b.execute_script("return innerWidth") == TV[0], "the board at 1920×1080")
                sb.wait(browser, lambda b: "投票" in sb.text_of(b, "now"), "the board shows the vote")
                check_simplified(browser, "the board during the vote")
                sb.screenshot(browser, args.screenshots, "board-vote-zh-hans.png")
                browser.switch_to.window(player)
                pictured = True
            sb.answer_dialog(browser, yes=True)
            sb.wait(
                browser,
                lambda b: b.find_elements(By.CSS_SELECTOR, "#vote-list .chosen") or not sb.visible(b, "vote-list"),
                "the ballot cast",
            )
        elif state == "guess":
            sb.by_id(browser, "guess-input").send_keys("咖啡", Keys.ENTER)
            sb.wait(browser, lambda b: not sb.visible(b, "guess-form"), "the guess taken")


def play(args):
    browser = sb.launch(sb.PHONE, "zh-CN")
    try:
        run(browser, args)
    finally:
        browser.quit()


def run(browser, args):
    url = args.url
    player = browser.current_window_handle
    languages = browser.execute_script("return navigator.languages")
    sb.check(languages and languages[0] == "zh-CN", f"the browser asks for zh-CN first: {languages}")

    board = sb.new_tab(browser, sb.LAPTOP)
    browser.get(url + "/board")
    sb.wait(browser, lambda b: sb.text_of(b, "room-code"), "the board's room code")
    sb.check(sb.text_of(browser, "join-heading") == "用手机或电脑加入", "the board speaks Simplified Chinese")
    check_simplified(browser, "the board's lobby")
    browser.switch_to.window(player)

    # The page speaks Simplified Chinese from the browser's language alone, and does not remember it as a pick.
    sb.record_frames(browser)
    browser.get(url + "/")
    sb.wait(browser, lambda b: sb.visible(b, "join-name"), "the join form")
    sb.check(sb.text_of(browser, "join-heading") == "加入游戏", "the page speaks Simplified Chinese to zh-CN")
    sb.check(sb.language_of(browser) == "zh-Hans", "the language menu shows 简体中文")
    menu = [option.text for option in Select(sb.by_id(browser, "lang-menu")).options]
    sb.check(menu == ["繁體中文", "简体中文", "English"], f"the language menu offers {menu}")
    sb.check(
        browser.execute_script("return localStorage.getItem('whoisspy.lang')") is None,
        "the browser's language is not stored as a pick",
    )
    check_simplified(browser, "the join form")
    check_font(browser, "#join-heading", "SC", "加入游戏")
    sb.check_strings_complete(browser)
    sb.check_strings_source(url)
    sb.check_sentences_render(browser)
    sb.at_sizes(browser, "the join form")
    sb.press(browser, sb.by_id(browser, "create-button"))
    question, yes, no = sb.confirm_dialog(browser)
    sb.check(yes == "创建新房间" and no == "取消" and "房间号" in question, f"创建新房间 asks {question!r}")
    check_simplified(browser, "the new room question")
    sb.answer_dialog(browser, yes=False)

    me = sb.join(browser, url, "小红")
    sb.wait(browser, lambda b: sb.seat_count(b) == 4, "three bots seated")
    sb.wait(browser, lambda b: sb.text_of(b, "link") == "已连接", "connected")
    sb.check(sb.text_of(browser, "settings-heading") == "设置", "the settings heading")
    sb.check(sb.text_of(browser, "events-heading") == "记录", "the events heading")
    check_simplified(browser, "the lobby")
    words = choose_word_language(browser)
    show_unknown_language(browser)
    sb.at_sizes(browser, "the lobby")
    check_board(browser, board, player, "in the lobby")
    sb.press(browser, sb.by_id(browser, "start-button"))

    word = sb.take_dealt_word(browser)
    check_simplified(browser, "after the deal")
    sb.check(sb.word_while_holding(browser) == word, "忘词 held shows the dealt word")
    check_board(browser, board, player, "after the deal")
    play_game(browser, args, board, player, me)

    winner = sb.text_of(browser, "winner")
    sb.check(winner.endswith("获胜！"), f"the winner line {winner!r}")
    sb.check(sb.text_of(browser, "start-button") == "再来一局", "the owner may play again")
    sb.check(sb.text_at(browser, f'#reveal li[data-player="{me}"] .reveal-word') == word, "my word in the reveal")
    check_simplified(browser, f"game over ({words} words)")
    sb.at_sizes(browser, "game over")
    browser.switch_to.window(board)
    sb.wait(browser, lambda b: sb.visible(b, "game-over"), "the board's reveal")
    check_simplified(browser, "the board at game over")
    browser.switch_to.window(player)

    # 繁體中文 from the menu: the page and its fonts change, and the pick outlives a reload.
    sb.pick_language(browser, "zh-TW")
    sb.wait(browser, lambda b: sb.text_of(b, "start-button") == "再來一局", "the page in Traditional Chinese")
    sb.check(browser.execute_script("return document.documentElement.lang") == "zh-Hant-TW", "marked zh-Hant-TW")
    sb.check(browser.execute_script("return localStorage.getItem('whoisspy.lang')") == "zh-TW", "the pick stored")
    check_font(browser, "#winner", "TC", "the winner line in Traditional Chinese")
    browser.refresh()
    sb.wait(browser, lambda b: sb.visible(b, "game"), "the seat back after a reload")
    sb.check(sb.text_of(browser, "settings-heading") == "設定", "the pick outlives a reload")
    sb.check(sb.language_of(browser) == "zh-TW", "the menu shows 繁體中文")

    # ?lang=zh-CN outranks the pick for the page it opens; picking from the menu then drops it from the address.
    browser.get(url + "/?lang=zh-CN")
    sb.wait(browser, lambda b: sb.visible(b, "game") and sb.text_of(b, "settings-heading") == "设置", "?lang=zh-CN")
    sb.check(browser.execute_script("return localStorage.getItem('whoisspy.lang')") == "zh-TW", "?lang= not stored")
    check_simplified(browser, "?lang=zh-CN")
    sb.pick_language(browser, "en")
    sb.wait(browser, lambda b: sb.text_of(b, "settings-heading") == "Settings", "the page in English")
    sb.check(browser.execute_script("return location.search") == "", "the pick takes ?lang= out of the address")
    sb.pick_language(browser, "zh-Hans")
    sb.wait(browser, lambda b: sb.text_of(b, "settings-heading") == "设置", "Simplified Chinese picked")
    sb.check(browser.execute_script("return localStorage.getItem('whoisspy.lang')") == "zh-Hans", "the pick stored")
    check_simplified(browser, "Simplified Chinese picked")
    sb.check_console(browser)


if __name__ == "__main__":
    sb.main(play)
