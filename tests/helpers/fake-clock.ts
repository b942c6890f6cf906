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
