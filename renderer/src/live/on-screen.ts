/** Whether a job's card is drawn inside the grid's visible area (the DOM is the only one who knows). */
export function cardOnScreen(id: string): boolean {
  if (typeof document === 'undefined') return false;
  const card = document.querySelector<HTMLElement>(`[data-card="${CSS.escape(id)}"]`);
  const scroller = card?.closest('.grid-scroll, .list-scroll');
  if (card === null || card === undefined || scroller === null || scroller === undefined) return false;
  const a = card.getBoundingClientRect();
  const b = scroller.getBoundingClientRect();
  // Most of the card, not a sliver at the edge.
  const visible = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return visible >= a.height / 2 && a.right > b.left && a.left < b.right;
}

export function pageHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}
