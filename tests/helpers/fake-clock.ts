import type { Clock } from '../../server/clock.ts';

export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

/** A clock that moves only when the test says so. */
export function createFakeClock(start = new Date('2026-11-22T09:00:00Z')): FakeClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}

/** Moves the clock to the start of a rate limit's next window, so a whole run falls into one window. */
export function startOfNextWindow(clock: FakeClock, windowMs: number) {
  clock.set(new Date(Math.ceil((clock.now().getTime() + 1) / windowMs) * windowMs));
}
