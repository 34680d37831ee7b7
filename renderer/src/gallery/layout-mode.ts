/** How the history is shown: the image grid, or a compact list for people who read text. */
export type Layout = 'grid' | 'list';

export const LAYOUT_KEY = 'atelier.layout';

/** Anything stored other than 'list' (nothing yet, an old or hand-edited value) is the grid. */
export function parseLayout(raw: string | null | undefined): Layout {
  return raw === 'list' ? 'list' : 'grid';
}
