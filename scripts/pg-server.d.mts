/** A throw-away PostgreSQL server on `port` (see pg-server.mjs). */
export function startPostgres(port?: number): { url: string; stop(): void };
