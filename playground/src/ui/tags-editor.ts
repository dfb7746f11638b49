import { h, replaceChildren } from "../dom.js";
import type { TagRow } from "../playground-state.js";

/** Options of `tagsEditor`. */
export interface TagsEditorOptions {
  /** Prefix for element ids, unique in the page. */
  readonly idPrefix: string;
  /** Legend of the fieldset, e.g. "Tags". */
  readonly legend: string;
  /** Rows shown first. */
  readonly rows: readonly TagRow[];
  /** Called with every row after each edit, addition or removal. */
  readonly onChange: (rows: readonly TagRow[]) => void;
}

/** A tags editor: key/value rows, each labelled, with add and remove buttons. */
export interface TagsEditor {
  readonly element: HTMLElement;
  /** Replaces the rows (e.g. when a shared link is opened). */
  setRows(rows: readonly TagRow[]): void;
}

/** Creates a key/value rows editor for ResourceDescriptor.tags or GetActualCost tag filters. */
export function tagsEditor(options: TagsEditorOptions): TagsEditor {
  let rows: TagRow[] = [...options.rows];
  const list = h("div", { class: "tag-rows" });
  const changed = () => options.onChange([...rows]);

  // After a change made with the keyboard, focus goes where the person is working: the key of
  // a new row, or after a removal the row that took its place (or "Add tag" when none is left).
  const render = (focusIndex?: number) => {
    replaceChildren(
      list,
      rows.map(([key, value], index) => {
        const keyId = `${options.idPrefix}-key-${index}`;
        const valueId = `${options.idPrefix}-value-${index}`;
        const keyInput = h("input", {
          id: keyId,
          class: "tag-key",
          value: key,
          autocomplete: "off",
        });
        const valueInput = h("input", {
          id: valueId,
          class: "tag-value",
          value,
          autocomplete: "off",
        });
        const update = () => {
          rows[index] = [keyInput.value, valueInput.value];
          changed();
        };
        keyInput.addEventListener("input", update);
        valueInput.addEventListener("input", update);
        const remove = h(
          "button",
          { type: "button", class: "secondary small", "aria-label": `Remove tag ${index + 1}` },
          "Remove",
        );
        remove.addEventListener("click", () => {
          rows = rows.filter((_, i) => i !== index);
          const next = Math.min(index, rows.length - 1);
          render(next >= 0 ? next : undefined);
          if (next < 0) queueMicrotask(() => add.focus());
          changed();
        });
        const row = h(
          "div",
          { class: "tag-row" },
          h("label", { for: keyId, class: "visually-hidden" }, `Tag ${index + 1} key`),
          keyInput,
          h("span", { "aria-hidden": "true" }, "="),
          h("label", { for: valueId, class: "visually-hidden" }, `Tag ${index + 1} value`),
          valueInput,
          remove,
        );
        if (index === focusIndex) queueMicrotask(() => keyInput.focus());
        return row;
      }),
    );
  };

  const add = h("button", { type: "button", class: "secondary small" }, "Add tag");
  add.addEventListener("click", () => {
    rows = [...rows, ["", ""]];
    render(rows.length - 1);
    changed();
  });
  render();

  return {
    element: h("fieldset", { class: "tags" }, h("legend", {}, options.legend), list, add),
    setRows(next) {
      rows = [...next];
      render();
    },
  };
}
