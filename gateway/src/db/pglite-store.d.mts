// Types of pglite-store.mjs (plain JavaScript, so that the database thread loads it without TypeScript).
import type { PGlite } from '@electric-sql/pglite';

/** Opens PGlite in `dir` (or `memory://`), from a cached empty cluster when it is new. */
export function openPglite(dir: string, options?: { sharedBuffers?: string; useTemplate?: boolean }): Promise<PGlite>;

/** Logs every statement (and every transaction) of `client` slower than `thresholdMs`. */
export function logSlowStatements(client: PGlite, thresholdMs: number): void;
