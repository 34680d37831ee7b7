/** Time as the services see it: tests pass a fake one, production the wall clock. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
