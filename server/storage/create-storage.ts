import type { AppConfig } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import type { FileStorage } from './storage.ts';

/** The storage the configuration selects (STORAGE_DRIVER). */
export function createStorage(config: AppConfig): FileStorage {
  switch (config.STORAGE_DRIVER) {
    case 'local':
      return createLocalStorage(config.uploadsDir);
    case 's3':
      throw new Error('STORAGE_DRIVER=s3 is not available yet: use local');
  }
}
