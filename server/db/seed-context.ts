import type { FastifyInstance } from 'fastify';

// What a domain's seed step (server/modules/<domain>/<domain>.seed.ts) receives from server/db/seed.ts.
// Its own file, so that the steps and the seed that lists them do not import each other.

export interface SeededAccount {
  id: string;
  name: string;
  login: string;
  password: string;
}

export interface SeedContext {
  app: FastifyInstance;
  admin: SeededAccount;
  client: SeededAccount;
  /** Lines printed after the credentials (e.g. "3 demo projects for Demo Client Ltd"). */
  report: (line: string) => void;
}
