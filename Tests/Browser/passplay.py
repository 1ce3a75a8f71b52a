"""The moves of a page with several seats (pass-and-play), as the people round the device make them, and the check
that its document never holds two different words."""

import re

import spybrowser as sb
from selenium.webdriver.common.by import By


def add_seat(browser, name):
    """In the lobby: "Add a player on this device" with `name`; waits until the page shows that seat."""
    if not sb.visible(browser, "add-seat-form"):
        sb.press(browser, sb.by_id(browser, "add-seat-open"))
    field = sb.by_id(browser, "add-seat-name")
    field.clear()
    field.send_keys(name)
    sb.press(browser, sb.by_id(browser, "add-seat-button"))
    sb.wait(browser, lambda b: name in device_names(b), f"{name} on this device")


def device_names(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('#device-seat-list .seat-name')].map((e) => e.textContent)"
    )


def device_ids(browser):
    return sb.attributes_of_all(browser, "#device-seat-list li", "data-player")


def holds(text, word):
    """`word` appears in `text` as a word: not as a piece of a longer Latin word ("ice" in "device")."""
    return re.search(r"(?<![A-Za-z])" + re.escape(word) + r"(?![A-Za-z])", text) is not None


class Snapshots:
    """Every state the page went through: its whole markup and its text. Checked for two words once the game's
    words are known (at game over), and for each word shown for the right seat. A state taken once the game-over
    screen names both words is public by design and is not checked: the game can end between a step's look at the
    page and its snapshot (the phone's or a bot's ballot closing the vote)."""

    def __init__(self):
        self.taken = []

    def take(self, browser, what):
        html, text, over = browser.execute_script(
            """
            const over = document.getElementById("game-over");
            return [document.documentElement.outerHTML, document.documentElement.innerText,
                    over !== null && over.offsetParent !== null
                        && document.getElementById("civilian-word").textContent !== ""];
            """
        )
        self.taken.append((what, html, text, over))

    def check_one_word(self, words):
        words = [word for word in words if word]
        pairs = [(a, b) for a in words for b in words if a < b and a not in b and b not in a]
        checked = 0
        for what, html, text, over in self.taken:
            if over:
                continue
            checked += 1
            for a, b in pairs:
                sb.check(not (holds(html, a) and holds(html, b)), f"{what}: the document holds both {a!r} and {b!r}")
                sb.check(not (holds(text, a) and holds(text, b)), f"{what}: the page shows both {a!r} and {b!r}")
        return checked


def shown_word_text(browser):
    return sb.text_at(browser, "#pass-word")


def word_of(text):
    """The word in "NAME 的詞：WORD" / "NAME's word: WORD"; None for the blank."""
    for mark in ("的詞：", "'s word: "):
        if mark in text:
            return text.split(mark, 1)[1].strip()
    return None


def actionable(browser):
    """What the page asks of the device now: pass screen, word, clue, vote, done, guess, game over, or nothing."""
    return browser.execute_script(
        """
        const shown = (id) => { const e = document.getElementById(id); return e && e.offsetParent !== null; };
        if (shown("game-over") && document.getElementById("civilian-word").textContent) return "over";
        if (document.getElementById("confirm").open) return "dialog";
        if (shown("pass-open")) return "pass";
        if (shown("pass-hide")) return "word";
        if (shown("pass-votes")) return "vote";
        if (shown("pass-input")) return "input";
        if (shown("pass-done")) return "done";
        return "";
        """
    )


def opened_name(browser):
    """The name on the "I am NAME" button."""
    return sb.text_at(browser, "#pass-open").replace("我是", "").replace("I am", "").strip()


def step(browser, snapshots, seen, choose_vote, clue_text=lambda name: "形狀圓圓的"):
    """Does what the page asks of the device now, once; returns what it did ("" when nothing was asked).
    `seen[name]` collects each seat's word as its pass screen showed it; `choose_vote(name, candidate ids)` picks
    a ballot."""
    kind = actionable(browser)
    snapshots.take(browser, kind or "waiting")
    if kind == "pass":
        name = opened_name(browser)
        sb.press(browser, sb.by_id(browser, "pass-open"))
        sb.wait(browser, lambda b: actionable(b) != "pass" or opened_name(b) != name, f"{name}'s private screen")
        snapshots.take(browser, f"{name}'s private screen")
        browser.execute_script("window.__spyPassName = arguments[0]", name)
    elif kind == "word":
        name = browser.execute_script("return window.__spyPassName")
        text = shown_word_text(browser)
        sb.check(name and text.startswith(name), f"the word shown is {name}'s: {text!r}")
        seen[name] = word_of(text)
        sb.press(browser, sb.by_id(browser, "pass-hide"))
        sb.wait(browser, lambda b: not sb.visible(b, "pass-word"), "the word hidden")
    elif kind == "vote":
        name = browser.execute_script("return window.__spyPassName")
        ids = sb.attributes_of_all(browser, "#pass-votes button", "data-player")
        target = choose_vote(name, ids)
        sb.press(browser, browser.find_element(By.CSS_SELECTOR, f'#pass-votes button[data-player="{target}"]'))
        question, yes, _ = sb.confirm_dialog(browser)
        sb.check(question.endswith("出局嗎？") or question.startswith("Vote "), f"the vote confirmation: {question}")
        sb.answer_dialog(browser, yes=True)
        sb.wait(browser, lambda b: not sb.visible(b, "pass-votes"), "the ballot sent, the vote list gone")
    elif kind == "input":
        name = browser.execute_script("return window.__spyPassName")
        field = sb.by_id(browser, "pass-input")
        field.clear()
        field.send_keys(clue_text(name))
        field.submit()
        sb.wait(browser, lambda b: not sb.visible(b, "pass-input"), f"{name}'s clue taken")
    elif kind == "done":
        before = sb.text_at(browser, "#pass-done")
        sb.press(browser, sb.by_id(browser, "pass-done"))
        sb.wait(browser, lambda b: sb.text_at(b, "#pass-done") != before, "the next speaker")
    return kind


def wait_actionable(browser, what, also=lambda b: False):
    return sb.wait(browser, lambda b: actionable(b) or also(b), what)
