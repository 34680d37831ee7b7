/** Walking the prompt history with ↑ and ↓ in the prompt box, as a shell does. */
export interface PromptWalk {
  /** Newest first; null until the first ↑ fetches them. */
  items: string[] | null;
  /** -1: the text the person typed; 0: the newest past prompt. */
  index: number;
  /** What was in the box before the walk began, given back by ↓ past the newest. */
  typed: string;
}

/** One step older (+1) or newer (-1): the walk and the prompt to show, or null at either end. */
export function stepPromptWalk(walk: PromptWalk, direction: 1 | -1): { walk: PromptWalk; prompt: string } | null {
  const items = walk.items ?? [];
  let index = walk.index + direction;
  // A past prompt equal to what is in the box would look like nothing happened: step over it.
  const current = walk.index < 0 ? walk.typed : items[walk.index];
  while (index >= 0 && index < items.length && items[index] === current) index += direction;
  if (index >= items.length || index < -1) return null;
  return { walk: { ...walk, index }, prompt: index === -1 ? walk.typed : items[index]! };
}
