import pg from 'pg';

/** The latest mail of a kind to an address, read from the server's outbox (no SMTP in browser tests). */
export async function latestMail(to: string, kind: string): Promise<string> {
  const client = new pg.Client({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app`,
  });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      const { rows } = await client.query<{ text: string }>(
        'SELECT text FROM mail_outbox WHERE "to" = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1',
        [to, kind],
      );
      if (rows[0]) return rows[0].text;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${kind} mail to ${to}`);
  } finally {
    await client.end();
  }
}

/** The e-mailed set-password or reset link in a mail's text. */
export const linkIn = (text: string) => new URL(/https?:\/\/\S+#token=[A-Za-z0-9_-]+/.exec(text)![0]);
