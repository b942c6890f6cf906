import '../../common/zod-setup.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { configOrExit } from '../start.ts';
import { createStorage } from '../storage/create-storage.ts';
import { BackupRefusal, restoreBackup } from './backup.ts';
import { BackupFormatError } from './archive.ts';
import { openForBackup } from './target.ts';

// npm run restore -- FILE [--force]: into an empty data directory or database (decision 165).
const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- FILE [--force]\n  --force  restore even though the database or file storage holds data (it is deleted first)');
  process.exit(2);
}
const file = path.resolve(positionals[0]);
if (!existsSync(file)) {
  console.error(`No such backup file: ${file}`);
  process.exit(2);
}
const config = configOrExit();
const target = await openForBackup(config, { running: 'refuse' });
try {
  const s = await restoreBackup({ databaseUrl: target.url, storage: createStorage(config), file, force: values.force });
  console.log(`Restored the backup of ${s.createdAt} (schema ${s.schema}): ${s.tables} tables, ${s.rows} rows; ${s.files} files, ${s.fileBytes} bytes.`);
} catch (err) {
  console.error(err instanceof BackupRefusal || err instanceof BackupFormatError ? err.message : `Restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await target.close();
}
