import type { QueueMove } from './queue-order';

export interface QueueKeyInput {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/** On a focused queued row: Alt+↑/↓ one place, Alt+Home to the top, Alt+End to the end; anything else is not a move. */
export function queueMoveOfKey(input: QueueKeyInput): QueueMove | null {
  if (!input.altKey || input.ctrlKey || input.metaKey || input.shiftKey) return null;
  switch (input.key) {
    case 'ArrowUp':
      return 'up';
    case 'ArrowDown':
      return 'down';
    case 'Home':
      return 'top';
    case 'End':
      return 'end';
    default:
      return null;
  }
}

/** Plain ↑/↓/Home/End on a row move the focus along the list (the index it goes to, or null to leave the key be). */
export function focusStepOfKey(input: QueueKeyInput, index: number, length: number): number | null {
  if (input.altKey || input.ctrlKey || input.metaKey || input.shiftKey || length === 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(length - 1, i));
  switch (input.key) {
    case 'ArrowUp':
      return clamp(index - 1);
    case 'ArrowDown':
      return clamp(index + 1);
    case 'Home':
      return 0;
    case 'End':
      return length - 1;
    default:
      return null;
  }
}
