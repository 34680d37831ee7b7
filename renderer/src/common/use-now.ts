/**
 * The wall clock for text relative to now ("5 minutes ago", "Today"), read as the component renders. A component
 * showing such text re-renders when what it shows changes, and must compare it with the time of that render: a clock
 * kept in state from an earlier render would lag the data it is set against (a health check "in the future").
 */
export function useNow(): number {
  return Date.now();
}
