/** The time source of the server; tests pass a fake one to move time forward. */
export interface Clock {
  now(): Date;
}

/** A clock a test may move forward (the browser tests' server, the API tests' fake clock). */
export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The real time plus an offset that only grows: the clock of a browser-test server process
 * (E2E_TEST_HOOKS=1), which `POST /api/test/clock` moves so a story can reach a scheduled time
 * without waiting for it. Never the clock of a development or production process.
 */
export function createOffsetClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}

export const isMovableClock = (clock: Clock): clock is MovableClock => typeof (clock as Partial<MovableClock>).advance === 'function';
