import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { LocalStorage } from './local-storage';
import { S3Storage } from './s3-storage';
import type { Storage } from './storage';

export type { Storage } from './storage';

/** S3 when configured, the gateway's own disk otherwise. */
export function createStorage(db: Database, config: Config): Storage {
  const { s3, uploadTtlMs } = config.onboarding;
  return s3 ? new S3Storage(db, s3, uploadTtlMs) : new LocalStorage(db, config);
}
