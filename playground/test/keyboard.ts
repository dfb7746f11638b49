import type { Page } from "playwright-core";

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector`, as a keyboard user
 * moves through the page; throws when it is not reached within `maxPresses`. Returns whether
 * the element shows a focus indicator (outline or the page's focus ring).
 */
export async function tabTo(
  page: Page,
  selector: string,
  options: { maxPresses?: number; backwards?: boolean } = {},
): Promise<{ focusVisible: boolean; presses: number }> {
  const maxPresses = options.maxPresses ?? 80;
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press(options.backwards ? "Shift+Tab" : "Tab");
    const state = await page.evaluate((wanted) => {
      const active = document.activeElement;
      if (active === null || !active.matches(wanted)) return undefined;
      const style = getComputedStyle(active);
      const visible =
        (style.outlineStyle !== "none" && style.outlineWidth !== "0px") ||
        style.boxShadow !== "none";
      return { visible };
    }, selector);
    if (state) return { focusVisible: state.visible, presses };
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`Tab never reached ${selector} (focus ended on ${focused ?? "nothing"})`);
}

/** The outer HTML (shortened) of the focused element, for assertions and messages. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? "");
}
