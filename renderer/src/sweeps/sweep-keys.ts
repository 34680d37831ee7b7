import { ratingOfKey } from '../common/keyboard';

export type SweepCommand =
  | { kind: 'move'; key: string }
  | { kind: 'open' }
  | { kind: 'zoom'; by: 1 | -1 }
  | { kind: 'page'; by: 1 | -1 }
  | { kind: 'rate'; rating: number }
  | { kind: 'reject' }
  | { kind: 'trash' }
  | { kind: 'compare' }
  | { kind: 'rerun' };

const MOVES = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

/** The grid's keys (the cheat sheet's Sweep grid group): null leaves the key to the page. */
export function sweepKeyToCommand(input: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}): SweepCommand | null {
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  const { key } = input;
  if (MOVES.has(key)) return { kind: 'move', key };
  if (key === 'Enter') return { kind: 'open' };
  if (key === '+' || key === '=') return { kind: 'zoom', by: 1 };
  if (key === '-' || key === '_') return { kind: 'zoom', by: -1 };
  if (key === 'PageDown') return { kind: 'page', by: 1 };
  if (key === 'PageUp') return { kind: 'page', by: -1 };
  const rating = ratingOfKey(key);
  if (rating !== null) return { kind: 'rate', rating };
  if (key === 'x' || key === 'X') return { kind: 'reject' };
  if (key === 'Delete' || key === 'Backspace') return { kind: 'trash' };
  if (key === 'c' || key === 'C') return { kind: 'compare' };
  if (key === 'r' || key === 'R') return { kind: 'rerun' };
  return null;
}
