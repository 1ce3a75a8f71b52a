"""Shared pieces of the browser tests: a headless Chromium that talks only to 127.0.0.1, waits with deadlines,
and the player page's moves as a person would make them (buttons, the confirmation dialog, holding 忘詞).

The scripts are run by Tests/spydTests/BrowserTests.swift against a real spyd; each takes --url.
Exit status 77 means the browser or selenium is missing (the Swift test skips, or fails under CI=true).
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

MISSING = 77

try:
    from selenium import webdriver
    from selenium.common.exceptions import (
        ElementNotInteractableException,
        NoSuchElementException,
        StaleElementReferenceException,
        TimeoutException,
    )
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"selenium is not installed for {sys.executable}: {error}", file=sys.stderr)
    sys.exit(MISSING)

# Selenium must never fetch a driver or report usage: the driver is given, and this says it again.
os.environ.setdefault("SE_OFFLINE", "true")
os.environ.setdefault("SE_AVOID_STATS", "true")

PHONE = (390, 844)
LAPTOP = (1280, 800)
DEADLINE = float(os.environ.get("SPY_BROWSER_DEADLINE", "45"))

# Records every frame the page's WebSocket receives, before any page script runs (CDP, not the page: the CSP
# does not apply to it). Lets a test see exactly what the host sent to that tab, and drop its connection.
FRAME_RECORDER = """
(() => {
  const Native = window.WebSocket;
  window.__spyFrames = [];
  window.__spySockets = [];
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    window.__spySockets.push(socket);
    socket.addEventListener("message", (event) => window.__spyFrames.push(String(event.data)));
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", help="http://127.0.0.1:PORT of a running spyd")
    parser.add_argument("--spyd", help="the spyd binary, for a script that starts (and kills) its own host")
    parser.add_argument("--spyd-args", default="[]", help="a JSON list of arguments for that host")
    parser.add_argument("--screenshots", default=os.environ.get("SPY_BROWSER_SCREENSHOTS", ""))
    args = parser.parse_args()
    if not args.url and not args.spyd:
        parser.error("--url or --spyd is needed")
    return args


class Host:
    """A spyd this script owns, on a fixed port of 127.0.0.1 with its own state directory, so that it can be killed
    with SIGKILL and started again where the pages look for it (the same origin keeps their seats)."""

    def __init__(self, binary, extra):
        self.binary = binary
        self.extra = list(extra)
        self.scratch = tempfile.mkdtemp(prefix="spyd-browser-")
        self.state = os.path.join(self.scratch, "state")
        os.makedirs(self.state)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.starts = 0

    def start(self):
        """Starts the host and returns once it says it listens (its standard error read line by line)."""
        self.starts += 1
        command = [self.binary, "--host", "--bind", "127.0.0.1", "--port", str(self.port), "--no-qr",
                   "--state-dir", self.state, *self.extra]
        self.lines = []
        listening = threading.Event()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, env={**os.environ, "SWIFT_BACKTRACE": "enable=no"})

        def read(stream, lines):
            for raw in stream:
                text = raw.decode("utf-8", "replace")
                lines.append(text)
                if "listening on" in text:
                    listening.set()
            listening.set()

        threading.Thread(target=read, args=(self.process.stderr, self.lines), daemon=True).start()
        check(listening.wait(DEADLINE) and self.process.poll() is None, f"spyd did not start:\n{self.log()}")
        return self

    def kill9(self):
        """SIGKILL, as a power cut would: nothing is flushed or closed by the host itself."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=DEADLINE)

    def log(self):
        return "".join(self.lines)[-4000:]

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.scratch, ignore_errors=True)


def find_programs():
    chromium = os.environ.get("SPY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("SPY_CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver:
        print(
            "Chromium or its driver is missing (Debian: apt-get install chromium chromium-driver; "
            "scripts/install-test-deps.sh does it)",
            file=sys.stderr,
        )
        sys.exit(MISSING)
    return chromium, driver


def launch(size=PHONE, language="zh-TW"):
    """A headless Chromium of `size` whose pages see `language` as the browser's language."""
    chromium, driver = find_programs()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={size[0]},{size[1]}",
        f"--lang={language}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication",
        "--password-store=basic",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        # Nothing resolves but the loopback address: the page and the browser cannot reach anything else.
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ]:
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=driver)
    browser = webdriver.Chrome(service=service, options=options)
    set_size(browser, size)
    return browser


def set_size(browser, size):
    """Makes the page's viewport exactly `size` CSS pixels; a phone size also behaves as a phone (touch, the
    viewport meta tag)."""
    browser.set_window_size(size[0] + 40, size[1] + 160)
    phone = size[0] < 600
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": phone},
    )
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5})


def new_tab(browser, size=PHONE):
    """A new window of the same browser: its own tab, so its own sessionStorage and its own player."""
    browser.switch_to.new_window("window")
    set_size(browser, size)
    return browser.current_window_handle


def record_frames(browser):
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FRAME_RECORDER})


def drop_connection(browser):
    """Closes the page's WebSocket under it, as a flaky network would."""
    browser.execute_script("window.__spySockets.forEach((socket) => socket.close())")


def frames(browser):
    return [json.loads(text) for text in browser.execute_script("return window.__spyFrames || []")]


def welcomes(browser):
    """How many `welcome` frames the page has received: one more after each connection the host takes back.
    Counted from the frames, not the events list, which shows only the latest lines: an older "Reconnected" can
    drop off its end as a new one arrives."""
    return sum(1 for frame in frames(browser) if frame.get("type") == "welcome")


# Fields that carry a word in the protocol.
WORD_KEYS = {"word", "civilianWord", "spyWord", "blankGuess"}
# Fields whose values come from a fixed list (a word of the English bank may be spelled like one of them), and the
# typed clues' text (what players chose to say, which may name anything).
NOT_WORDS = {"type", "phase", "clueMode", "tieRule", "blankRule", "language", "reason", "outcome", "identity",
             "revealed", "winner", "role", "code", "message", "text"}


def fields(value, key=None):
    """Every (key, None) and (key, string value) pair of a frame, at any depth."""
    if isinstance(value, dict):
        for inner_key, inner in value.items():
            yield inner_key, None
            yield from fields(inner, inner_key)
    elif isinstance(value, list):
        for inner in value:
            yield from fields(inner, key)
    elif isinstance(value, str):
        yield key, value


def before_game_over(received):
    """The frames received before the first game_over."""
    end = next((i for i, frame in enumerate(received) if frame.get("type") == "game_over"), len(received))
    return received[:end]


def check_no_word(frame, words, what):
    """`frame` has no word field and no value that is one of `words`."""
    pairs = list(fields(frame))
    check(not {key for key, _ in pairs} & WORD_KEYS, f"{what} has a word field: {frame}")
    leaked = [(key, value) for key, value in pairs if value is not None and key not in NOT_WORDS and value in words]
    check(not leaked, f"{what} carries a word of {words}: {leaked} in {frame}")


def wait(browser, condition, what, timeout=DEADLINE):
    """Waits for `condition(browser)` to be truthy and returns it; fails with `what` after `timeout` seconds."""

    def check(driver):
        try:
            return condition(driver)
        except StaleElementReferenceException:
            return False

    try:
        return WebDriverWait(browser, timeout, poll_frequency=0.05).until(check)
    except TimeoutException:
        raise AssertionError(f"timed out after {timeout:.0f} s waiting for: {what}\n{page_summary(browser)}")


def page_summary(browser):
    try:
        return "page text:\n" + browser.find_element(By.TAG_NAME, "body").text[:3000]
    except Exception as error:  # noqa: BLE001 - diagnostics only
        return f"(no page text: {error})"


def by_id(browser, element_id):
    return browser.find_element(By.ID, element_id)


def visible(browser, element_id):
    elements = browser.find_elements(By.ID, element_id)
    return bool(elements) and elements[0].is_displayed()


def press(browser, element):
    """Clicks like a finger: the element brought to the middle of the screen first (not under the header)."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    element.click()


def press_if_still_shown(browser, element_id):
    """Presses a button the page showed a moment ago, unless the host's next update hid it meanwhile (a turn that
    passed, a vote that closed): a loop that looks again sees the new state. Whether the press did anything is for
    the loop's own deadline to judge. Returns whether the button was pressed."""
    try:
        press(browser, by_id(browser, element_id))
        return True
    except (NoSuchElementException, ElementNotInteractableException, StaleElementReferenceException):
        return False


def text_of(browser, element_id):
    return by_id(browser, element_id).text.strip()


# Reads made inside the page in one step: the page redraws its lists on every update from the host, so an element
# found by one WebDriver call may be gone by the next (a stale reference). A script call is never stale.
def text_at(browser, selector):
    """The text of the first element matching `selector`, trimmed; None when there is none. Unlike Selenium's
    `.text`, an element hidden by CSS still gives its text: use it for what is on screen."""
    return browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText.trim() : null", selector
    )


def attribute_at(browser, selector, name):
    """An attribute of the first element matching `selector`; None when there is no such element or attribute."""
    return browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null",
        selector,
        name,
    )


def attributes_of_all(browser, selector, name):
    return browser.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), (e) => e.getAttribute(arguments[1]))",
        selector,
        name,
    )


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def no_horizontal_scroll(browser, where):
    """The page is no wider than the window: nothing to scroll sideways."""
    widths = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
        " document.body.scrollWidth, window.innerWidth]"
    )
    check(
        widths[0] <= widths[1] and widths[2] <= widths[3],
        f"{where}: horizontal scroll (scrollWidth {widths[0]}/{widths[2]} > width {widths[1]}/{widths[3]})",
    )


def at_sizes(browser, where, sizes=(PHONE, LAPTOP)):
    """Checks the page at each size for sideways scrolling, then returns to the first size."""
    for size in sizes:
        set_size(browser, size)
        wait(browser, lambda b: b.execute_script("return window.innerWidth") == size[0], f"width {size[0]}")
        no_horizontal_scroll(browser, f"{where} at {size[0]}×{size[1]}")
        check_accessible(browser, f"{where} at {size[0]}×{size[1]}")
    set_size(browser, sizes[0])


def check_console(browser, allowed=("/qr.svg",)):
    """No script error and no Content-Security-Policy violation in any window's console (the board's probe for
    an optional QR image may 404)."""
    problems = []
    for handle in browser.window_handles:
        browser.switch_to.window(handle)
        for entry in browser.get_log("browser"):
            if entry.get("level") != "SEVERE":
                continue
            if any(part in entry.get("message", "") for part in allowed):
                continue
            problems.append(entry.get("message", ""))
    check(not problems, "errors in the browser console:\n" + "\n".join(problems))


ACCESSIBILITY_PROBLEMS = """
const problems = [];
for (const node of document.querySelectorAll("button, input, select, textarea")) {
  const box = node.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  const labels = node.labels ? Array.from(node.labels).map((label) => label.textContent).join("").trim() : "";
  const name = (node.getAttribute("aria-label") || "").trim() || labels ||
    (node.tagName === "BUTTON" ? node.textContent.trim() : "");
  if (!name) problems.push("no accessible name: " + node.outerHTML.slice(0, 120));
  if (node.tagName === "BUTTON" && (box.height < 44 || box.width < 44)) {
    problems.push(`touch target ${Math.round(box.width)}×${Math.round(box.height)}: ` + node.outerHTML.slice(0, 80));
  }
}
if (!document.documentElement.lang) problems.push("no lang on <html>");
if (!document.querySelector("[aria-live]")) problems.push("no live region");
return problems;
"""


# The page's sentence tables, as its modules load them: the script's last argument is Selenium's callback.
LOAD_STRINGS = """
const done = arguments[arguments.length - 1];
import("/strings.mjs").then(({ STRINGS }) => {
"""
LOAD_STRINGS_END = """
});
"""


def check_strings_complete(browser):
    """Every language has every sentence: the same keys at every level of the page's STRINGS and PASS_STRINGS as
    the page itself loads them from strings.mjs, the pass screens' under `pass` (Tests/Web/strings.test.mjs holds
    the files to more)."""
    missing = browser.execute_async_script(
        LOAD_STRINGS
        + """
        const gaps = [];
        const walk = (a, b, path) => {
          for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
            if (!(key in a) || !(key in b)) gaps.push(path + key);
            else if (typeof a[key] !== typeof b[key]) gaps.push(path + key + " (type)");
            else if (typeof a[key] === "object") walk(a[key], b[key], path + key + ".");
          }
        };
        const tables = { STRINGS };
        for (const [name, table] of Object.entries(tables)) {
          for (const lang of Object.keys(table)) walk(table["zh-TW"], table[lang], `${name}.${lang}.`);
        }
        done(gaps);
        """
        + LOAD_STRINGS_END
    )
    check(not missing, f"sentences missing in one language: {missing}")


def check_accessible(browser, where):
    """Every control has a name a screen reader can say, every button is a large enough target, headings go down
    one level at a time, and no text on the page is program text."""
    problems = browser.execute_script(ACCESSIBILITY_PROBLEMS)
    check(not problems, f"{where}: " + "; ".join(problems))
    check_heading_order(browser, where)
    check_no_program_text(browser, where)


def check_heading_order(browser, where):
    """The headings of the page as shown (a visually hidden one counts, a `hidden` one does not) never skip a
    level on the way down (h1 then h3 is a skip)."""
    levels = browser.execute_script(
        """
        return [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
          .filter((h) => h.getClientRects().length > 0)
          .map((h) => [Number(h.tagName[1]), h.textContent.trim()]);
        """
    )
    previous = 0
    for level, text in levels:
        check(level <= previous + 1, f"{where}: heading {text!r} is h{level} after h{previous}: {levels}")
        previous = level


def check_no_program_text(browser, where):
    """No text the page shows or names a control with is a piece of its program (a function's source, a template
    left unfilled)."""
    texts = browser.execute_script(
        """
        const texts = [document.body.innerText, document.title];
        for (const node of document.querySelectorAll("[aria-label]")) texts.push(node.getAttribute("aria-label"));
        return texts;
        """
    )
    for text in texts:
        for bad in ("=>", "${"):
            check(bad not in (text or ""), f"{where}: program text {bad!r} on the page: {text[:400]!r}")


def object_keys(source, start):
    """The keys of the JavaScript object literal whose `{` is at `start`, level by level: a list of (path, key)
    for every key, so a key written twice in one object shows up twice with the same path."""
    keys = []
    stack = []  # one entry per open bracket: [char, path of the object or None, last key]
    i = start
    last = "{"  # the last significant character outside strings
    token = ""
    while i < len(source):
        c = source[i]
        if c in "\"'`":
            quote = c
            j = i + 1
            text = ""
            while source[j] != quote:
                if source[j] == "\\":
                    j += 1
                elif quote == "`" and source.startswith("${", j):
                    depth = 1
                    j += 2
                    while depth:
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    continue
                text += source[j]
                j += 1
            token = text if quote != "`" else ""
            i = j + 1
            last = "s"
            continue
        if source.startswith("//", i):
            i = source.index("\n", i)
            continue
        if c.isspace():
            i += 1
            continue
        m = re.match(r"[A-Za-z_$][\w$]*", source[i:])
        if m:
            before = last
            token = m.group(0)
            i += len(token)
            rest = source[i:].lstrip()
            if rest.startswith(":") and stack and stack[-1][0] == "{" and before in "{,":
                path = stack[-1][1]
                keys.append((path, token))
                stack[-1][2] = token
            last = "w"
            continue
        if c in "{([":
            if c == "{" and stack and stack[-1][0] == "{" and last == ":":
                path = (stack[-1][1] or "") + stack[-1][2] + "."
            elif c == "{" and not stack:
                path = ""
            else:
                path = None if c != "{" else "(block)."
            stack.append([c, path, ""])
            last = c
            i += 1
            continue
        if c in "})]":
            stack.pop()
            last = c
            i += 1
            if not stack:
                break
            continue
        if c == ":" and last == "s" and stack and stack[-1][0] == "{":
            # A quoted key, such as "zh-TW":
            keys.append((stack[-1][1], token))
            stack[-1][2] = token
        last = c
        i += 1
    return keys


def check_strings_source(url):
    """The pages' sentence tables (strings/{zh-TW,zh-Hans,en}.mjs, the pass screens' under `pass`) define each key
    once: a second definition silently replaces the first, so one of the two sentences is never shown as meant."""
    for table, least in (("zh-TW", 200), ("zh-Hans", 200), ("en", 200)):
        with urllib.request.urlopen(f"{url}/strings/{table}.mjs", timeout=DEADLINE) as response:
            source = response.read().decode("utf-8")
        start = source.index("{", source.index("export default"))
        keys = object_keys(source, start)
        check(len(keys) > least, f"the sentence table {table} was read ({len(keys)} keys)")
        seen = set()
        twice = []
        for path, key in keys:
            if path is None or path.startswith("(block)") or "(block)" in path:
                continue
            if (path, key) in seen:
                twice.append(path + key)
            seen.add((path, key))
        check(not twice, f"sentences defined twice in strings/{table}.mjs: {twice}")


def check_sentences_render(browser):
    """Every sentence of every language, called with sample arguments where it takes some, is text without
    program text in it."""
    problems = browser.execute_async_script(
        LOAD_STRINGS
        + """
        const problems = [];
        const settings = { spies: 1, blank: true, blankRule: "guess", clueMode: "typed", turnSeconds: 60,
          voteSeconds: 0, tieRule: "pk", spyWin: "three" };
        const walk = (value, path, table) => {
          if (typeof value === "function") {
            let text;
            try {
              if (path.endsWith("settingsLine")) text = value(settings, table);
              else if (path.endsWith(".list")) text = value(["甲", "乙"]);
              else text = value("甲", "乙", "丙");
            } catch (error) {
              problems.push(path + ": " + error);
              return;
            }
            walk(text, path, table);
          } else if (typeof value === "object" && value !== null) {
            for (const [key, inner] of Object.entries(value)) walk(inner, path + "." + key, table);
          } else if (typeof value !== "string" && typeof value !== "boolean") {
            problems.push(path + ": " + typeof value);
          } else if (String(value).includes("=>") || String(value).includes("${")) {
            problems.push(path + ": " + value);
          }
        };
        for (const lang of Object.keys(STRINGS)) walk(STRINGS[lang], lang, STRINGS[lang]);
        done(problems);
        """
        + LOAD_STRINGS_END
    )
    check(not problems, f"sentences that are not text: {problems}")


def screenshot(browser, directory, name):
    if not directory:
        return
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(path)
    print(f"screenshot {path}")


# The player page's moves.


def join(browser, url, name, room=None):
    browser.get(url + ("/?room=" + room if room else "/"))
    wait(browser, lambda b: visible(b, "join-name"), "the join form")
    field = by_id(browser, "join-name")
    field.clear()
    field.send_keys(name)
    press(browser, by_id(browser, "join-button"))
    wait(browser, lambda b: visible(b, "game"), f"{name} seated")
    return my_id(browser)


def my_id(browser):
    return wait(
        browser,
        lambda b: attribute_at(b, "#seats li.is-me", "data-player"),
        "my seat marked",
    )


def seat_count(browser):
    return len(browser.find_elements(By.CSS_SELECTOR, "#seats li.seat"))


def shown_word(browser):
    """The text of the word panel: the word while shown, empty while hidden."""
    return text_of(browser, "word")


def word_from_panel(text):
    for prefix in ("你的詞：", "你的词：", "Your word: "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    if text in ("你是白板", "You are the blank"):
        return None
    raise AssertionError(f"the word panel says {text!r}")


WORD_CARD_IN_VIEW = """
const header = document.querySelector(".bar").getBoundingClientRect();
const card = document.getElementById("word-card").getBoundingClientRect();
const hide = document.getElementById("hide-word").getBoundingClientRect();
return [Math.round(header.bottom), Math.round(card.top), Math.round(hide.bottom), window.innerHeight];
"""


def check_word_card_in_view(browser, where):
    """The word card starts below the sticky header and its button to hide the word is on screen."""

    def in_view(b):
        header, card, hide_bottom, height = b.execute_script(WORD_CARD_IN_VIEW)
        return card >= header - 1 and hide_bottom <= height

    try:
        wait(browser, in_view, "the word card in view")
    except AssertionError:
        header, card, hide_bottom, height = browser.execute_script(WORD_CARD_IN_VIEW)
        raise AssertionError(
            f"{where}: the word card is not in view (header ends at {header}, card starts at {card}, "
            f"its button ends at {hide_bottom} of {height})"
        )


def take_dealt_word(browser, where="after the deal"):
    """After the deal: reads the word shown once (in view, its button focused), hides it, and checks it is gone."""
    text = wait(browser, lambda b: visible(b, "hide-word") and shown_word(b), "the dealt word shown once")
    word = word_from_panel(text)
    check_word_card_in_view(browser, where)
    wait(browser, lambda b: b.execute_script("return document.activeElement.id") == "hide-word", "focus on 藏起來")
    press(browser, by_id(browser, "hide-word"))
    wait(browser, lambda b: shown_word(b) == "" and visible(b, "forgot"), "the word hidden, 忘詞 offered")
    return word


def word_while_holding(browser):
    """Holds 忘詞 with the pointer: the word while held, nothing once let go."""
    button = by_id(browser, "forgot")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    where = "return [arguments[0].getBoundingClientRect().top, document.getElementById('word').getBoundingClientRect()]"
    before, _ = browser.execute_script(where, button)
    actions = ActionChains(browser)
    actions.move_to_element(button).click_and_hold(button).perform()
    text = wait(browser, lambda b: shown_word(b), "the word while 忘詞 is held")
    during, word_box = browser.execute_script(where, button)
    header = browser.execute_script("return document.querySelector('.bar').getBoundingClientRect().bottom")
    # The word shows away from the thumb: the button stays where it was pressed, the word above it, on screen.
    check(abs(during - before) < 1, f"忘詞 moved from {before} to {during} px when the word showed")
    check(word_box["bottom"] <= during and word_box["top"] >= header - 1, f"the word at {word_box} is not above 忘詞")
    ActionChains(browser).release(button).perform()
    wait(browser, lambda b: shown_word(b) == "", "the word hidden again when 忘詞 is let go")
    return word_from_panel(text)


def word_while_key_held(browser, key=Keys.SPACE):
    button = by_id(browser, "forgot")
    browser.execute_script("arguments[0].focus()", button)
    ActionChains(browser).key_down(key).perform()
    text = wait(browser, lambda b: shown_word(b), "the word while the key is held on 忘詞")
    ActionChains(browser).key_up(key).perform()
    wait(browser, lambda b: shown_word(b) == "", "the word hidden again when the key is let go")
    return word_from_panel(text)


def focused(browser):
    """The id of the element with the keyboard focus ("" for the page itself)."""
    return browser.execute_script("return document.activeElement ? document.activeElement.id : ''")


def check_focus_after_vote(browser, target):
    """After a ballot the focus is on it (while the vote is open), not back at the top of the page."""
    wait(
        browser,
        lambda b: not visible(b, "vote-list")
        or b.execute_script("return document.activeElement.dataset.player") == target,
        "focus on the ballot just cast",
        10,
    )


def browser_style(browser, element_id, prop):
    return browser.execute_script(
        "return getComputedStyle(document.getElementById(arguments[0]))[arguments[1]]", element_id, prop
    )


def stored_seats(browser):
    """The seats the page keeps for its device; older pages kept one per tab."""
    return browser.execute_script(
        """
        const list = JSON.parse(localStorage.getItem("whoisspy.seats") || "[]");
        const tab = sessionStorage.getItem("whoisspy.token");
        return tab ? list.concat([{ token: tab }]) : list;
        """
    )


def dialog_open(browser):
    return browser.execute_script("return document.getElementById('confirm').open")


def event_count(browser, text):
    """How many lines of the events list read exactly `text`."""
    return browser.execute_script(
        "return [...document.querySelectorAll('#events li')].filter((e) => e.innerText.trim() === arguments[0]).length",
        text,
    )


def confirm_dialog(browser):
    wait(browser, dialog_open, "the dialog")
    return text_of(browser, "confirm-question"), text_of(browser, "confirm-yes"), text_of(browser, "confirm-no")


def answer_dialog(browser, yes):
    press(browser, by_id(browser, "confirm-yes" if yes else "confirm-no"))
    wait(browser, lambda b: not dialog_open(b), "dialog closed")


def vote_buttons(browser):
    return browser.find_elements(By.CSS_SELECTOR, "#vote-list button.vote")


def vote_for(browser, player_id):
    button = browser.find_element(By.CSS_SELECTOR, f'#vote-list button[data-player="{player_id}"]')
    press(browser, button)
    question, _, _ = confirm_dialog(browser)
    answer_dialog(browser, yes=True)
    wait(
        browser,
        lambda b: b.find_elements(By.CSS_SELECTOR, f'#vote-list button.chosen[data-player="{player_id}"]')
        or not visible(b, "vote-list"),
        "the ballot marked",
    )
    return question


def pick_language(browser, key):
    """Picks an interface language from the header's menu ("zh-TW", "zh-Hans", "en"), as a person would."""
    menu = by_id(browser, "lang-menu")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", menu)
    Select(menu).select_by_value(key)


def language_of(browser):
    """The interface language the header's menu shows."""
    return browser.execute_script("return document.getElementById('lang-menu').value")


def phase_of(browser):
    """The phase as the page's header names it, in either language."""
    return text_of(browser, "where")


def main(run):
    """Runs `run(args)`, printing a clear failure and exiting 1 on any assertion."""
    # A deadline hit in the Swift test sends SIGTERM: unwind so the browser is quit, not orphaned.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = arguments()
    started = time.monotonic()
    try:
        run(args)
    except AssertionError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        sys.exit(1)
    print(f"ok in {time.monotonic() - started:.1f} s")
