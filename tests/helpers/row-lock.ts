import type { TestApp } from './test-app.ts';

/**
 * Runs `start` while the test holds a row lock, and lets go only once `waiters` database sessions
 * are waiting on a lock: requests started together then really meet at the row, whatever the
 * timing of the machine (proof that a service locks before it reads what it checks).
 */
export async function meetingAtLockedRow<T>(t: TestApp, table: string, id: string, waiters: number, start: () => Promise<T>): Promise<T> {
  const holder = await t.database.pool.connect();
  try {
    await holder.query('begin');
    await holder.query(`select 1 from ${table} where id = $1 for update`, [id]);
    const pending = start();
    for (let i = 0; i < 500; i++) {
      // Inside a transaction the activity view is read once and cached: clear it to see the waiters come.
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
      );
      if (rows[0].n >= waiters) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await holder.query('commit');
    return await pending;
  } finally {
    holder.release();
  }
}
