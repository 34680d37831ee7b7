/** Moves the keyboard into the gallery: the card holding the grid's tab stop (or the first one), false when empty. */
export function focusGrid(root: ParentNode = document): boolean {
  const card = root.querySelector<HTMLElement>('.grid-scroll [data-card][tabindex="0"]') ?? root.querySelector<HTMLElement>('.grid-scroll [data-card]');
  if (card === null) return false;
  card.focus();
  return true;
}
