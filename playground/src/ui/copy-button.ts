import { h } from "../dom.js";

/**
 * A button that copies `text()` to the clipboard and says so for a moment. Falls back to a
 * selected hidden textarea where the Clipboard API is unavailable (plain-http origins).
 */
export function copyButton(label: string, text: () => string): HTMLButtonElement {
  const button = h("button", { type: "button", class: "copy", "aria-label": label }, "Copy");
  button.addEventListener("click", async () => {
    const value = text();
    let copied = false;
    try {
      await navigator.clipboard.writeText(value);
      copied = true;
    } catch {
      copied = copyWithSelection(value);
    }
    button.textContent = copied ? "Copied" : "Select and copy";
    setTimeout(() => {
      button.textContent = "Copy";
    }, 1500);
  });
  return button;
}

function copyWithSelection(value: string): boolean {
  const area = h("textarea", { class: "visually-hidden", "aria-hidden": "true" });
  area.value = value;
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  return copied;
}
