/** Anything `h` accepts as a child: nodes, text, and nested lists; falsy values are skipped. */
export type Child = Node | string | number | false | null | undefined | readonly Child[];

/** Attributes and listeners `h` accepts: `on<event>` keys are listeners, the rest attributes. */
export type Props = Record<string, unknown>;

/**
 * Creates an HTML element. `class` sets the class list; `onclick` style keys add listeners;
 * `value`, `checked` and `selected` set the live property; `true` sets an empty attribute and
 * `false`, `null` or `undefined` leave it out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  applyProps(element, props);
  append(element, children);
  return element;
}

const svgNamespace = "http://www.w3.org/2000/svg";

/** Creates an SVG element, with the same props and children rules as `h`. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(svgNamespace, tag);
  applyProps(element, props);
  append(element, children);
  return element;
}

/** Appends children (text, nodes, nested lists) to a parent, skipping falsy ones. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces every child of `parent` with `children`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

const liveProperties = new Set(["value", "checked", "selected", "disabled"]);

function applyProps(element: Element, props: Props): void {
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (liveProperties.has(key) && key in element) {
      (element as unknown as Record<string, unknown>)[key] = value;
    } else if (value === true) {
      element.setAttribute(key, "");
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(key, String(value));
    }
  }
}

let idCounter = 0;

/** A document-unique id with a readable prefix, for label/aria wiring. */
export function uniqueId(prefix: string): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}
