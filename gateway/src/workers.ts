/**
 * The job workers in a process of their own: `pnpm --filter ./gateway run workers`, next to gateways
 * started with WORKERS=off, on the same DATABASE_URL (and the same GATEWAY_DATA_DIR, where uploaded
 * import files live). Same queues and handlers as in the gateway (src/composition.ts builds both). PGlite
 * belongs to one process, so this needs a PostgreSQL server.
 */
import Fastify from 'fastify';
import { loadConfig } from './config';
import { openDatabase } from './db/index';
import { createDeps } from './composition';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('workers: set DATABASE_URL (PGlite is embedded in the gateway, which runs its jobs itself)');
  process.exit(1);
}
// Fastify's logger (pino), as in the gateway; no server is started.
const log = Fastify({ logger: { level: config.logLevel } }).log;
const handle = await openDatabase(config);
await handle.migrate();
const { jobs, background } = createDeps({ db: handle.db, config, log, workers: true });
await jobs.start();

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: stopping the workers`);
  setTimeout(() => process.exit(0), 15_000).unref();
  try {
    await jobs.stop();
    await background.drain();
    await handle.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
console.log(
  `Job workers running on PostgreSQL (DATABASE_URL): ${(await jobs.counts()).map((q) => q.queue).join(', ')}`,
);
