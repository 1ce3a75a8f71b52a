// The pages' words: the sentence table of each language, the choice of language, and `say`, which turns a
// sentence named as data (what the reducer keeps: `{ t: "clueEvent", a: ["Amy", "早上喝的"] }`) into text in
// the language shown now. The reducer never holds text, so a switch of language redraws every line.
import zh from "./strings/zh.mjs";
import en from "./strings/en.mjs";

export const STRINGS = { zh, en };

/** The languages in the order the switch goes round them. */
export const LANGUAGES = ["zh", "en"];

/** The `lang` attribute of a page in `lang`, so screen readers pronounce it right. */
export function htmlLang(lang) {
  return lang === "zh" ? "zh-Hant-TW" : "en";
}

/** The language after `lang` on the switch. */
export function nextLanguage(lang) {
  return LANGUAGES[(LANGUAGES.indexOf(lang) + 1) % LANGUAGES.length];
}

/** The interface language: the player's last choice, else the browser's (zh… means Traditional Chinese). */
export function pickLanguage(saved, browserLanguages) {
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of browserLanguages || []) {
    if (!tag) continue;
    const lower = tag.toLowerCase();
    if (lower.startsWith("zh")) return "zh";
    if (lower.startsWith("en")) return "en";
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
