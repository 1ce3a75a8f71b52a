// The pages' sentence tables (Sources/SpyWeb/Assets/strings/*.mjs, through strings.mjs) and the choice of the
// interface language (shell/language.mjs), run against a stand-in for just enough of a browser (location,
// navigator, localStorage, history, document).
//
// Run with `node --test Tests/Web/` (Tests/SpyWebTests/WebStringsTests.swift does, so `swift test` runs it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { INTERFACE_LANGUAGES, STRINGS as TABLES_BY_LANGUAGE, languageOfTag } from "../../Sources/SpyWeb/Assets/strings.mjs";
import { applyLanguage, initialLanguage, pickLanguage } from "../../Sources/SpyWeb/Assets/shell/language.mjs";

const root = new URL("../../", import.meta.url);
const read = (path) => readFileSync(new URL(path, root), "utf8");

/** The characters of a script table under Tests/Support/Fixtures/: the first of each line that is not a `#` comment. */
function hanTable(name) {
  const lines = read(`Tests/Support/Fixtures/${name}`).split("\n");
  return new Set(lines.filter((line) => line.trim() && !line.startsWith("#")).map((line) => [...line.trim()][0]));
}

const traditionalOnly = hanTable("traditional-only.txt");
const simplifiedOnly = hanTable("simplified-only.txt");

/** A fresh page: a browser's globals whose address, browser languages and storage are given. */
function page({ search = "", languages = [], stored = undefined, storage = true } = {}) {
  const items = new Map(stored === undefined ? [] : [["whoisspy.lang", stored]]);
  const localStorage = {
    getItem: (key) => {
      if (!storage) throw new Error("storage is off");
      return items.has(key) ? items.get(key) : null;
    },
    setItem: (key, value) => {
      if (!storage) throw new Error("storage is off");
      items.set(key, String(value));
    },
  };
  const context = {
    location: { search, pathname: "/", hash: "" },
    history: { state: null, replaceState: (_, __, url) => (context.location.search = new URL(url, "http://h").search) },
    navigator: { languages, language: languages[0] },
    localStorage,
    document: { documentElement: { lang: "" } },
  };
  const globals = {
    "initialLanguage()": () => initialLanguage(context),
    applyLanguage: () => (lang) => applyLanguage(lang, context),
    pickLanguage: () => (lang) => pickLanguage(lang, context),
    languageOfTag: () => languageOfTag,
  };
  const global = (name) => globals[name]();
  return { global, items, context };
}

const { global } = page();

// The page's tables, and the pass screens' sentences (each language's `pass`) as a table of their own.
const STRINGS = Object.fromEntries(
  Object.entries(TABLES_BY_LANGUAGE).map(([lang, { pass: _, ...table }]) => [lang, table]),
);
const PASS_STRINGS = Object.fromEntries(Object.entries(TABLES_BY_LANGUAGE).map(([lang, table]) => [lang, table.pass]));
const LANGUAGES = INTERFACE_LANGUAGES;
const TABLES = { STRINGS, PASS_STRINGS };

/** Every leaf of a table as [path, value]: strings, and functions (whose source holds their text). */
function leaves(value, path = "") {
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, path ? `${path}.${key}` : key));
  }
  return [[path, value]];
}

/** The text a leaf can show: a string itself, a function's source (every branch of it). */
function textOf(value) {
  return typeof value === "function" ? value.toString() : String(value);
}

test("every table speaks the languages of the menu, and only those", () => {
  const keys = Array.from(LANGUAGES, (entry) => entry.key);
  assert.deepEqual(keys, ["zh-TW", "zh-Hans", "en"]);
  for (const [name, table] of Object.entries(TABLES)) {
    assert.deepEqual(Object.keys(table).sort(), [...keys].sort(), `${name} has the menu's languages`);
  }
});

test("every language has every sentence, and no sentence the others lack", () => {
  const gaps = [];
  const walk = (tables, path) => {
    const all = new Set(Object.values(tables).flatMap((table) => Object.keys(table)));
    for (const key of all) {
      const here = `${path}${key}`;
      const missing = Object.keys(tables).filter((lang) => !(key in tables[lang]));
      if (missing.length > 0) {
        gaps.push(`${here}: missing in ${missing.join(", ")}`);
        continue;
      }
      const kinds = new Set(Object.values(tables).map((table) => typeof table[key]));
      if (kinds.size > 1) {
        gaps.push(`${here}: a ${[...kinds].join(" in one, a ")} in another`);
        continue;
      }
      if (kinds.has("object")) {
        walk(Object.fromEntries(Object.entries(tables).map(([lang, table]) => [lang, table[key]])), `${here}.`);
      }
    }
  };
  for (const [name, table] of Object.entries(TABLES)) walk(table, `${name}.`);
  assert.deepEqual(gaps, []);
});

/** The leaves of `lang` (and its name in the menu) that hold one of `characters`. */
function written(lang, characters) {
  const found = [];
  const name = LANGUAGES.find((entry) => entry.key === lang).name;
  const all = [[`menu name`, name], ...Object.entries(TABLES).flatMap(([table, t]) => leaves(t[lang], `${table}.${lang}`))];
  for (const [path, value] of all) {
    const wrong = [...new Set([...textOf(value)].filter((ch) => characters.has(ch)))];
    if (wrong.length > 0) found.push(`${path}: ${wrong.join("")} in ${JSON.stringify(textOf(value))}`);
  }
  return found;
}

test("Simplified Chinese holds no Traditional-only character", () => {
  assert.ok(traditionalOnly.has("誰") && traditionalOnly.size > 2000, "the Traditional-only table was read");
  assert.deepEqual(written("zh-Hans", traditionalOnly), []);
});

test("Traditional Chinese holds no Simplified-only character", () => {
  assert.ok(simplifiedOnly.has("谁") && simplifiedOnly.size > 2000, "the Simplified-only table was read");
  assert.deepEqual(written("zh-TW", simplifiedOnly), []);
});

test("each Chinese table is written in its script, not left in the other's", () => {
  // A few words every table uses, so a table copied from the other and never converted fails here too.
  for (const table of Object.values(TABLES)) {
    const hans = Object.values(table["zh-Hans"]).map(textOf).join("");
    const hant = Object.values(table["zh-TW"]).map(textOf).join("");
    assert.ok([...hans].some((ch) => simplifiedOnly.has(ch)), "the Simplified table has Simplified forms");
    assert.ok([...hant].some((ch) => traditionalOnly.has(ch)), "the Traditional table has Traditional forms");
  }
});

test("every sentence, called with sample values, is text without program text", () => {
  const settings = {
    spies: 1,
    blank: true,
    blankRule: "guess",
    clueMode: "typed",
    turnSeconds: 60,
    voteSeconds: 0,
    tieRule: "pk",
    spyWin: "three",
    language: "zh-TW",
  };
  const problems = [];
  for (const [name, table] of Object.entries(TABLES)) {
    for (const lang of Object.keys(table)) {
      for (const [path, value] of leaves(table[lang], `${name}.${lang}`)) {
        let text = value;
        if (typeof value === "function") {
          if (path.endsWith(".settingsLine")) text = value(settings, table[lang]);
          else if (path.endsWith(".list")) text = value(["A", "B"]);
          else text = value("A", "B", "C");
        }
        if (typeof text !== "string" || !text || /=>|\$\{|undefined|\[object/.test(text)) {
          problems.push(`${path}: ${JSON.stringify(text)}`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("a language tag names the interface language its reader reads", () => {
  const cases = {
    "zh-CN": "zh-Hans",
    "zh-SG": "zh-Hans",
    "zh-Hans": "zh-Hans",
    "zh-Hans-CN": "zh-Hans",
    "zh-Hans-HK": "zh-Hans",
    zh_CN: "zh-Hans",
    zh: "zh-Hans",
    "zh-TW": "zh-TW",
    "zh-HK": "zh-TW",
    "zh-MO": "zh-TW",
    "zh-Hant": "zh-TW",
    "zh-Hant-CN": "zh-TW",
    "ZH-tw": "zh-TW",
    en: "en",
    "en-GB": "en",
    fr: "",
    "": "",
  };
  const languageOfTag = global("languageOfTag");
  for (const [tag, lang] of Object.entries(cases)) assert.equal(languageOfTag(tag), lang, tag);
});

test("the browser's languages choose until the player picks; the pick is remembered", () => {
  const first = (options) => {
    const p = page(options);
    const lang = p.global("initialLanguage()");
    p.global("applyLanguage")(lang);
    return { lang, tag: p.context.document.documentElement.lang, items: p.items, p };
  };
  assert.equal(first({ languages: ["zh-CN", "zh"] }).lang, "zh-Hans");
  assert.equal(first({ languages: ["zh-CN"] }).tag, "zh-Hans");
  assert.equal(first({ languages: ["zh-TW"] }).tag, "zh-Hant-TW");
  assert.equal(first({ languages: ["en-US"] }).tag, "en");
  assert.equal(first({ languages: ["fr-FR", "zh-HK", "en"] }).lang, "zh-TW", "the first language the page speaks");
  assert.equal(first({ languages: ["de", "ja"] }).lang, "en", "English when none is spoken");
  assert.equal(first({ languages: [] }).lang, "en");
  // Chosen from the browser, not remembered: a browser that changes its language changes the page's.
  assert.equal(first({ languages: ["zh-CN"] }).items.size, 0);

  const picked = first({ languages: ["zh-CN"] }).p;
  picked.global("pickLanguage")("zh-TW");
  assert.equal(picked.items.get("whoisspy.lang"), "zh-TW");
  assert.equal(picked.context.document.documentElement.lang, "zh-Hant-TW");
  assert.equal(first({ languages: ["zh-CN"], stored: "zh-TW" }).lang, "zh-TW", "the pick outranks the browser");
  assert.equal(first({ languages: ["en"], stored: "zh-Hans" }).lang, "zh-Hans");

  const old = first({ languages: ["zh-CN"], stored: "zh" });
  assert.equal(old.lang, "zh-TW", "a stored zh is Traditional Chinese");
  assert.equal(old.items.get("whoisspy.lang"), "zh-TW", "and is stored by its name");
  assert.equal(first({ languages: ["zh-CN"], stored: "klingon" }).lang, "zh-Hans", "an unknown pick is no pick");
  assert.equal(first({ languages: ["zh-TW"], storage: false }).lang, "zh-TW", "storage off: the browser decides");
});

test("?lang= outranks the pick for the page it opens, and a pick drops it", () => {
  const lang = (search, stored) => page({ search, stored, languages: ["en"] }).global("initialLanguage()");
  assert.equal(lang("?lang=zh-Hans"), "zh-Hans");
  assert.equal(lang("?lang=zh-CN"), "zh-Hans");
  assert.equal(lang("?room=KFRW&lang=zh-TW", "zh-Hans"), "zh-TW");
  assert.equal(lang("?lang=en", "zh-TW"), "en");
  assert.equal(lang("?lang=xx", "zh-TW"), "zh-TW", "an unknown ?lang= is ignored");
  const p = page({ search: "?room=KFRW&lang=en", languages: ["en"] });
  assert.equal(p.items.size, 0, "?lang= is not remembered");
  p.global("pickLanguage")("zh-Hans");
  assert.equal(p.context.location.search, "?room=KFRW", "the pick takes ?lang= out of the address");
  assert.equal(p.global("initialLanguage()"), "zh-Hans");
});
