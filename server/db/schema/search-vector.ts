import { customType } from 'drizzle-orm/pg-core';

/**
 * A PostgreSQL tsvector. Used only as a generated, stored column that the database keeps in step with
 * the text it is made of (decision 250), so no code path can forget to update it.
 */
export const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});
