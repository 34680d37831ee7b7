/** Performance marks the UI bench reads (`atelier:*`); a no-op where the User Timing API is missing. */
export function mark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(`atelier:${name}`);
}
