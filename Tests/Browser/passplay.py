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


# The document's markup without the attributes that hold the page's own names (ids, classes, input types, the
# keys of its strings, …): a dealt word such as "password" or "card" is found there as a name of the page's code,
# never as a word shown or kept. Every other attribute, and all text, is kept, so a word kept in a `data-` or
# `aria-label` attribute, or in a hidden element, is still found.
MARKUP_JS = """
const names = new Set(["id", "class", "name", "type", "for", "role", "lang", "rel", "href", "src", "method",
  "charset", "content", "autocomplete", "autocapitalize", "spellcheck", "inputmode", "enterkeyhint", "min", "max",
  "step", "maxlength", "aria-labelledby", "aria-describedby", "aria-live", "aria-atomic", "aria-pressed",
  "data-text", "data-setting", "data-setting-label", "data-option-of", "data-category", "data-kind", "data-player"]);
const copy = document.documentElement.cloneNode(true);
for (const element of copy.querySelectorAll("*")) {
  for (const name of element.getAttributeNames()) {
    if (names.has(name) || (name === "value" && element.tagName === "OPTION")) element.removeAttribute(name);
  }
}
return copy.outerHTML;
"""


def markup(browser):
    """The document's markup, without the attributes that name the page's own parts (see `MARKUP_JS`)."""
    return browser.execute_script(MARKUP_JS)


def check_markup_keeps_words(browser):
    """`markup` leaves out the page's own names and nothing else: a word kept in a hidden element, a `data-`
    attribute or a label is still found in it."""
    browser.execute_script(
        """
        const probe = document.createElement("div");
        probe.id = "markup-probe";
        probe.className = "probe-name";
        probe.hidden = true;
        probe.dataset.word = "probe-data";
        probe.setAttribute("aria-label", "probe-label");
        probe.textContent = "probe-text";
        document.body.append(probe);
        """
    )
    html = markup(browser)
    browser.execute_script('document.getElementById("markup-probe").remove()')
    for kept in ("probe-data", "probe-label", "probe-text"):
        sb.check(holds(html, kept), f"the markup checked for words keeps {kept!r}")
    sb.check(not holds(html, "probe-name"), "the markup checked for words leaves out class names")


def holds(text, word):
    """`word` appears in `text` as a word: not as a piece of a longer Latin word ("ice" in "device")."""
    return re.search(r"(?<![A-Za-z])" + re.escape(word) + r"(?![A-Za-z])", text) is not None


class Snapshots:
    """Every state the page went through: its markup (see `MARKUP_JS`) and its text. Checked for two words once the game's
    words are known (at game over), and for each word shown for the right seat. A state taken once the game-over
    screen names both words is public by design and is not checked: the game can end between a step's look at the
    page and its snapshot (the phone's or a bot's ballot closing the vote)."""

    def __init__(self):
        self.taken = []

    def take(self, browser, what):
        html, text, over = browser.execute_script(
            "const markup = (() => {" + MARKUP_JS + "})();"
            + """
            const over = document.getElementById("game-over");
            return [markup, document.documentElement.innerText,
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
        # A typed clue is public: its box comes with no pass screen, and its label names the seat.
        label = sb.text_at(browser, 'label[for="pass-input"]') or ""
        clue = label.endswith(" 的描述") or label.endswith("'s clue")
        name = label.replace(" 的描述", "").replace("'s clue", "") if clue else browser.execute_script("return window.__spyPassName")
        field = sb.by_id(browser, "pass-input")
        field.clear()
        field.send_keys(clue_text(name))
        field.submit()
        # Taken: the box goes, or it is the next seat's on this device (its label names that seat).
        sb.wait(
            browser,
            lambda b: not sb.visible(b, "pass-input") or sb.text_at(b, 'label[for="pass-input"]') != label,
            f"{name}'s clue taken",
        )
    elif kind == "done":
        before = sb.text_at(browser, "#pass-done")
        sb.press(browser, sb.by_id(browser, "pass-done"))
        sb.wait(browser, lambda b: sb.text_at(b, "#pass-done") != before, "the next speaker")
    return kind


def wait_actionable(browser, what, also=lambda b: False):
    return sb.wait(browser, lambda b: actionable(b) or also(b), what)
