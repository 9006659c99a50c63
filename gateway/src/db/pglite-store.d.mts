// Types of pglite-store.mjs (plain JavaScript, so that the database thread loads it without TypeScript).
import type { PGlite } from '@electric-sql/pglite';

/** Opens PGlite in `dir` (or `memory://`), from `snapshot` or else a cached empty cluster when it is new. */
export function openPglite(
  dir: string,
  options?: { sharedBuffers?: string; useTemplate?: boolean; snapshot?: string },
): Promise<PGlite>;

/** Writes the whole cluster to `file` (after a checkpoint), for `openPglite`'s `snapshot`. */
export function saveSnapshot(client: PGlite, file: string): Promise<void>;

/** Logs every statement (and every transaction) of `client` slower than `thresholdMs`. */
export function logSlowStatements(client: PGlite, thresholdMs: number): void;
