// The one way the views reach the document: `h` describes an element, `patch` makes a container's children match
// a list of descriptions, keyed (by `key`, else `id`, else position and tag), so an element that is still wanted is
// the same element afterwards: a button under a finger keeps its tap, a field keeps its focus and its typing.
// `set` applies a description's properties to one element that the page's markup already has.

/** An element's description: tag, properties (attributes, `on…` handlers, `text`, `value`, …), children. */
export function h(tag, props, ...children) {
  return { tag, props: props || {}, children: children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false) };
}

const SKIPPED = new Set(["key", "text", "value", "valueKey", "checked", "dataset", "class"]);

/** Applies `props` to `node`, undoing what the last call set and this one does not. */
export function set(node, props) {
  const before = node.__props || {};
  for (const [name, value] of Object.entries(props)) {
    if (SKIPPED.has(name)) continue;
    if (name.startsWith("on")) {
      const type = name.slice(2);
      node.__handlers = node.__handlers || {};
      if (!node.__handlers[type]) node.addEventListener(type, (event) => node.__handlers[type] && node.__handlers[type](event));
      node.__handlers[type] = value;
      continue;
    }
    if (name === "hidden") {
      node.hidden = Boolean(value);
      continue;
    }
    if (name === "disabled") {
      node.disabled = Boolean(value);
      continue;
    }
    if (value === undefined || value === null || value === false) node.removeAttribute(name);
    else if (node.getAttribute(name) !== (value === true ? "" : String(value))) node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const name of Object.keys(before)) {
    if (name in props || SKIPPED.has(name)) continue;
    if (name.startsWith("on")) node.__handlers[name.slice(2)] = null;
    else if (name === "hidden") node.hidden = false;
    else if (name === "disabled") node.disabled = false;
    else node.removeAttribute(name);
  }
  if ("class" in props && node.className !== (props.class || "")) node.className = props.class || "";
  if (props.dataset) {
    for (const [key, value] of Object.entries(props.dataset)) if (node.dataset[key] !== String(value)) node.dataset[key] = value;
  }
  if ("text" in props && node.textContent !== String(props.text ?? "")) node.textContent = String(props.text ?? "");
  if ("checked" in props && node.checked !== Boolean(props.checked)) node.checked = Boolean(props.checked);
  if ("value" in props) {
    // A field's value is written when the model's changes (or `valueKey` asks again), never under the typing.
    const wanted = `${props.value}\u0000${props.valueKey ?? ""}`;
    if (node.__value !== wanted) {
      node.__value = wanted;
      if (node.value !== String(props.value)) node.value = String(props.value);
    }
  }
  node.__props = props;
  return node;
}

function keyOf(description, index) {
  if (typeof description === "string") return `#text/${index}`;
  const props = description.props;
  if (props.key !== undefined) return `${description.tag}/${props.key}`;
  if (props.id) return `${description.tag}#${props.id}`;
  return `${description.tag}/${index}`;
}

function create(description) {
  if (typeof description === "string") return document.createTextNode(description);
  const node = document.createElement(description.tag);
  set(node, description.props);
  if (!("text" in description.props)) patch(node, description.children);
  return node;
}

/** Makes `parent`'s children match `descriptions`, reusing every element whose key is still there. */
export function patch(parent, descriptions) {
  const old = new Map();
  [...parent.childNodes].forEach((node) => {
    if (node.__key !== undefined) old.set(node.__key, node);
    else node.remove();
  });
  let at = parent.firstChild;
  descriptions.forEach((description, index) => {
    const key = keyOf(description, index);
    let node = old.get(key);
    if (node) {
      old.delete(key);
      if (typeof description === "string") {
        if (node.data !== description) node.data = description;
      } else {
        set(node, description.props);
        if (!("text" in description.props)) patch(node, description.children);
      }
    } else {
      node = create(description);
      node.__key = key;
    }
    if (node !== at) parent.insertBefore(node, at);
    else at = at.nextSibling;
  });
  for (const node of old.values()) node.remove();
}
