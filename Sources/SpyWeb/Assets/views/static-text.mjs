// The words of the pages' markup (elements marked `data-text`, the settings' labels and options) and the header's
// language menu, drawn in the language shown now.
import { h, patch, set } from "../shell/dom.mjs";
import { INTERFACE_LANGUAGES } from "../strings.mjs";

/** Every element marked `data-text="key"`, `data-setting-label` or `data-option-of`, in `L`'s words. */
export function staticText(L) {
  for (const node of document.querySelectorAll("[data-text]")) set(node, { ...(node.__props || {}), text: L[node.dataset.text] });
  for (const node of document.querySelectorAll("[data-setting-label]")) set(node, { ...(node.__props || {}), text: L.settingLabels[node.dataset.settingLabel] });
  for (const node of document.querySelectorAll("[data-option-of]")) {
    set(node, { ...(node.__props || {}), text: L[node.dataset.optionOf][node.value] });
  }
}

/** The header's language menu: every language named in itself (and marked so), `lang` chosen, named in `L`. */
export function languageMenu(menu, lang, L, dispatch) {
  patch(menu, INTERFACE_LANGUAGES.map(({ key, name, tag }) => h("option", { key, value: key, lang: tag, text: name })));
  set(menu, { "aria-label": L.languageLabel, value: lang, onchange: (event) => dispatch({ type: "language", lang: event.target.value }) });
}
