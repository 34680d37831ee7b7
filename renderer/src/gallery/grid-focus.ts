/** Moves the keyboard into the gallery: the card holding the grid's tab stop (or the first one), false when empty. */
export function focusGrid(root: ParentNode = document): boolean {
  // The grid or the list, whichever is shown.
  const card =
    root.querySelector<HTMLElement>(':is(.grid-scroll, .list-scroll) [data-card][tabindex="0"]') ??
    root.querySelector<HTMLElement>(':is(.grid-scroll, .list-scroll) [data-card]');
  if (card === null) return false;
  card.focus();
  return true;
}
