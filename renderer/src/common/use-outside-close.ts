import { useEffect, type RefObject } from 'react';

/** While `open`, a press outside `root` closes the popover (the menus above the prompt). */
export function useOutsideClose(open: boolean, root: RefObject<HTMLElement | null>, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (root.current !== null && !root.current.contains(e.target as Node)) close();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, root, close]);
}
