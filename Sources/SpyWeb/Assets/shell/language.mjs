// The interface language where the browser keeps it: `?lang=` in the address, the pick remembered on this device,
// the browser's own languages, and the document's `lang`. `env` is the browser's globals (tests give their own).
import { chooseLanguage, htmlLang, spoken } from "../strings.mjs";

export const LANGUAGE_KEY = "whoisspy.lang";

/** The language the page opens in (strings.mjs `chooseLanguage`). */
export function initialLanguage(env = globalThis) {
  const navigator = env.navigator || {};
  const browser = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  const asked = new URLSearchParams(env.location.search).get("lang");
  return chooseLanguage({ asked, picked: rememberedLanguage(env), browser });
}

/** The language the player picked on this device, "" when they never did. */
export function rememberedLanguage(env = globalThis) {
  try {
    let saved = env.localStorage.getItem(LANGUAGE_KEY);
    if (saved === "zh") {
      // "zh" named Traditional Chinese while it was the only Chinese: the same pick, by its own name.
      saved = "zh-TW";
      env.localStorage.setItem(LANGUAGE_KEY, saved);
    }
    return spoken(saved) ? saved : "";
  } catch (_) {
    // Storage can be off (private mode); the browser's language decides.
    return "";
  }
}

/** The player's pick from the menu: remembered on this device, and a `?lang=` that would outrank it dropped. */
export function pickLanguage(lang, env = globalThis) {
  try {
    env.localStorage.setItem(LANGUAGE_KEY, lang);
  } catch (_) {
    // Not remembered; the pick still holds for this page.
  }
  const params = new URLSearchParams(env.location.search);
  if (params.has("lang")) {
    params.delete("lang");
    const query = params.toString();
    env.history.replaceState(env.history.state, "", env.location.pathname + (query ? `?${query}` : "") + env.location.hash);
  }
  applyLanguage(lang, env);
}

/** Marks the document with the language. */
export function applyLanguage(lang, env = globalThis) {
  env.document.documentElement.lang = htmlLang(lang);
}
