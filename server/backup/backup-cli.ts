import '../../common/zod-setup.ts';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { configOrExit } from '../start.ts';
import { createStorage } from '../storage/create-storage.ts';
import { createBackup } from './backup.ts';
import { openForBackup } from './target.ts';

// npm run backup [-- --out FILE]: one file with the database (one snapshot), the stored files and
// the schema version. Works while the server runs (decision 165).
const { values } = parseArgs({ options: { out: { type: 'string', short: 'o' } } });
const config = configOrExit();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = path.resolve(values.out ?? path.join(config.DATA_DIR, 'backups', `backup-${stamp}.portal-backup`));
mkdirSync(path.dirname(file), { recursive: true });
const target = await openForBackup(config, { running: 'share' });
try {
  const started = Date.now();
  const s = await createBackup({ databaseUrl: target.url, storage: createStorage(config), file });
  console.log(
    `Backup written: ${s.file}\n  schema ${s.schema}; ${s.tables} tables, ${s.rows} rows; ${s.files} files, ${s.fileBytes} bytes; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (err) {
  console.error(`Backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await target.close();
}
