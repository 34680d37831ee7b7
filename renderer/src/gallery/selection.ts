export interface Selection {
  selected: Record<string, true>;
  /** Where a shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { selected: {}, anchor: null };

export interface ClickModifiers {
  /** Shift: extend a range from the anchor. */
  range: boolean;
  /** Ctrl on Windows/Linux, Cmd on macOS: toggle one item. */
  toggle: boolean;
}

/** The selection after a click on `id` within the grid's current `order`. */
export function clickSelect(
  selection: Selection,
  order: readonly string[],
  id: string,
  mods: ClickModifiers,
): Selection {
  if (mods.range && selection.anchor !== null) {
    const from = order.indexOf(selection.anchor);
    const to = order.indexOf(id);
    if (from !== -1 && to !== -1) {
      const [lo, hi] = from <= to ? [from, to] : [to, from];
      const selected: Record<string, true> = mods.toggle ? { ...selection.selected } : {};
      for (const each of order.slice(lo, hi + 1)) selected[each] = true;
      return { selected, anchor: selection.anchor };
    }
  }
  if (mods.toggle) {
    const selected = { ...selection.selected };
    if (selected[id]) delete selected[id];
    else selected[id] = true;
    return { selected, anchor: id };
  }
  return { selected: { [id]: true }, anchor: id };
}

export function selectAll(order: readonly string[]): Selection {
  const selected: Record<string, true> = {};
  for (const id of order) selected[id] = true;
  return { selected, anchor: order[0] ?? null };
}

export function selectedIds(selection: Selection, order: readonly string[]): string[] {
  return order.filter((id) => selection.selected[id]);
}

/** Drops ids no longer shown, so a batch action never touches what the person cannot see. */
export function pruneSelection(selection: Selection, order: readonly string[]): Selection {
  const shown = new Set(order);
  const kept = Object.keys(selection.selected).filter((id) => shown.has(id));
  if (kept.length === Object.keys(selection.selected).length) return selection;
  const selected: Record<string, true> = {};
  for (const id of kept) selected[id] = true;
  return { selected, anchor: selection.anchor !== null && shown.has(selection.anchor) ? selection.anchor : null };
}
