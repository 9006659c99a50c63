import type { PGlite } from '@electric-sql/pglite';

/** What the gateway needs of embedded PGlite, in its thread (PGlite itself) or on its own (PGliteThread). */
export type EmbeddedPglite = Pick<PGlite, 'query' | 'exec' | 'transaction' | 'listen' | 'close'>;
