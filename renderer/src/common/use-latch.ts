import { useState } from 'react';

/** False until `ready` has been true once, then true for good (a row that showed its cards, a card its thumbnail). */
export function useLatch(ready: boolean): boolean {
  const [latched, latch] = useState(ready);
  // Derived state, set during render: the render that first sees `ready` already returns true.
  if (ready && !latched) latch(true);
  return latched || ready;
}
