/** The time source of the server; tests pass a fake one to move time forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
