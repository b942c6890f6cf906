import type { AppConfig } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { FileStorage } from './storage.ts';

/** The storage the configuration selects (STORAGE_DRIVER). */
export function createStorage(config: AppConfig): FileStorage {
  switch (config.STORAGE_DRIVER) {
    case 'local':
      return createLocalStorage(config.uploadsDir);
    case 's3': {
      const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !config[k]);
      if (missing.length) throw new Error(`STORAGE_DRIVER=s3 needs ${missing.join(', ')}`);
      return createS3Storage({
        endpoint: config.S3_ENDPOINT!,
        bucket: config.S3_BUCKET!,
        region: config.S3_REGION,
        accessKeyId: config.S3_ACCESS_KEY_ID!,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      });
    }
  }
}
