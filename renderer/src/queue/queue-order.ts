/** Where a queued job goes, as the engine's queue.reorder takes it: before another job, or (null) to the end. */
export type QueueMove = 'up' | 'down' | 'top' | 'end';

export interface ReorderTarget {
  before: string | null;
}

/** The queue after moving `ids` before `before` (null: the end), as the engine will order it; for the optimistic view. */
export function moveInOrder<T extends { id: string }>(
  items: readonly T[],
  ids: readonly string[],
  before: string | null,
): T[] {
  const moving = new Set(ids);
  const picked = items.filter((item) => moving.has(item.id));
  const rest = items.filter((item) => !moving.has(item.id));
  const at = before === null ? rest.length : rest.findIndex((item) => item.id === before);
  const index = at === -1 ? rest.length : at;
  return [...rest.slice(0, index), ...picked, ...rest.slice(index)];
}

/** The reorder that moves one job one place, to the top or to the end; null when it is already there. */
export function targetOf(order: readonly string[], id: string, move: QueueMove): ReorderTarget | null {
  const i = order.indexOf(id);
  if (i === -1) return null;
  const last = order.length - 1;
  switch (move) {
    case 'up':
      return i === 0 ? null : { before: order[i - 1]! };
    case 'down':
      return i === last ? null : { before: order[i + 2] ?? null };
    case 'top':
      return i === 0 ? null : { before: order[0]! };
    case 'end':
      return i === last ? null : { before: null };
  }
}

/** A row dropped on another: it takes that row's place, the rows between shifting towards where it came from. */
export function dropTarget(order: readonly string[], dragged: string, over: string): ReorderTarget | null {
  const from = order.indexOf(dragged);
  const to = order.indexOf(over);
  if (from === -1 || to === -1 || from === to) return null;
  return to < from ? { before: over } : { before: order[to + 1] ?? null };
}
