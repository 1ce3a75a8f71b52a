// The pages' words: the sentence table of each language, the choice of language, and `say`, which turns a
// sentence named as data (what the reducer keeps: `{ t: "clueEvent", a: ["Amy", "早上喝的"] }`) into text in
// the language shown now. The reducer never holds text, so a switch of language redraws every line.
import zhTW from "./strings/zh-TW.mjs";
import zhHans from "./strings/zh-Hans.mjs";
import en from "./strings/en.mjs";

export const STRINGS = { "zh-TW": zhTW, "zh-Hans": zhHans, en };

// The interface languages: the key of their sentences, their name in themselves for the header's menu, and the
// tag that marks the document (screen readers pronounce it right; the CSS picks the script's fonts).
export const INTERFACE_LANGUAGES = [
  { key: "zh-TW", name: "繁體中文", tag: "zh-Hant-TW" },
  { key: "zh-Hans", name: "简体中文", tag: "zh-Hans" },
  { key: "en", name: "English", tag: "en" },
];

/** The `lang` attribute of a page in `lang`. */
export function htmlLang(lang) {
  return (INTERFACE_LANGUAGES.find((entry) => entry.key === lang) || INTERFACE_LANGUAGES[2]).tag;
}

/** Whether the page speaks `lang`. */
export function spoken(lang) {
  return INTERFACE_LANGUAGES.some((entry) => entry.key === lang);
}

/**
 * The interface language a BCP 47 tag asks for, "" when the page does not speak it: a Simplified script or a
 * mainland or Singapore region (zh-CN, zh-SG, zh-Hans-HK), and a bare zh, mean Simplified; a Traditional script or
 * Taiwan, Hong Kong or Macau (zh-TW, zh-HK, zh-MO, zh-Hant) mean Traditional.
 */
export function languageOfTag(tag) {
  const parts = String(tag || "")
    .toLowerCase()
    .replace(/_/g, "-")
    .split("-");
  if (parts[0] === "en") return "en";
  if (parts[0] !== "zh") return "";
  if (parts.includes("hans")) return "zh-Hans";
  if (parts.includes("hant") || ["tw", "hk", "mo"].includes(parts[1])) return "zh-TW";
  return "zh-Hans";
}

/**
 * The interface language: `?lang=` in the address (for this page, not remembered), else the player's pick
 * remembered on this device, else the first of the browser's languages (its Accept-Language) that the page
 * speaks, else English.
 */
export function chooseLanguage({ asked = "", picked = "", browser = [] }) {
  const fromAddress = languageOfTag(asked);
  if (fromAddress) return fromAddress;
  if (spoken(picked)) return picked;
  for (const tag of browser) {
    const lang = languageOfTag(tag);
    if (lang) return lang;
  }
  return "en";
}

/** A sentence as data: the key of `table` (dotted for nested tables) and its arguments. */
export function line(t, ...a) {
  return { t, a };
}

function lookup(table, path) {
  let value = table;
  for (const part of path.split(".")) {
    if (value === undefined || value === null) return undefined;
    value = value[part];
  }
  return value;
}

/**
 * The text of `entry` in `table`: a string is shown as it is (a name, a clue), `{ t, a }` is a sentence whose
 * arguments are said first (they may be sentences too), `{ all, sep }` joins several, and `fallback` is shown when
 * the table has no such sentence (an error code a newer host sends).
 */
export function say(table, entry) {
  if (entry === undefined || entry === null) return "";
  if (typeof entry === "string" || typeof entry === "number") return String(entry);
  if (Array.isArray(entry.all)) {
    return entry.all
      .map((part) => say(table, part))
      .filter((text) => text !== "")
      .join(entry.sep === undefined ? " " : entry.sep);
  }
  const value = lookup(table, entry.t);
  if (value === undefined) return entry.fallback === undefined ? entry.t : String(entry.fallback);
  if (typeof value !== "function") return String(value);
  const args = (entry.a || []).map((arg) => (arg && typeof arg === "object" && !Array.isArray(arg) && (arg.t || arg.all) ? say(table, arg) : arg));
  return value(...args, table);
}

/** A refusal of the host as a sentence: its code in the page's words, `too_few_players` with the numbers. */
export function problemLine(error) {
  if (error.code === "too_few_players" && Number.isInteger(error.need) && Number.isInteger(error.have)) {
    return line("problem.too_few_players_count", error.need, error.have);
  }
  return { t: `problem.${error.code}`, a: [], fallback: error.message || error.code };
}
