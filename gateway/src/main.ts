import { buildApp } from './app';
import { configWarnings, loadConfig } from './config';
import { openDatabase } from './db/index';
import { platformDkimRecord } from './mail/platform-dkim';
import { seed, seedTemplates } from './seed';
import { readDemoChain } from './demo-chain/index';

const started = Date.now();
const config = loadConfig();
const handle = await openDatabase(config);
await handle.migrate();
const { seeded } = await seed(handle.db, {
  sampleAppletUrl: config.sampleAppletUrl,
  demoChain: readDemoChain(config.dataDir),
});
if (seeded) await seedTemplates(handle.db, config.onboarding.publicUrl);
const app = await buildApp({ db: handle.db, config });

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: shutting down`);
  // Slow clients must not hold the process up for long.
  setTimeout(() => process.exit(0), 5000).unref();
  try {
    // The database closes after the app: the job runner's stop (a hook of the app) ends the jobs in hand
    // first, so a carrier's run waiting for new messages stops cleanly instead of meeting a closed
    // database (Fastify runs onClose hooks last registered first: a hook here would run before it).
    await app.close();
    await handle.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.pgliteDir}`;
const mail = config.smtpUrl ? 'SMTP' : `outbox ${config.outboxDir}`;
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
console.log(
  `Gateway listening on http://${shownHost}:${config.port} (API reference: /docs) — ${where}` +
    `${seeded ? ', demo data seeded' : ''}; mail to ${mail}; ready in ${Date.now() - started} ms`,
);
const dkim = config.platformDkim;
if (dkim) {
  const record = platformDkimRecord(dkim);
  console.log(
    `Platform mail is DKIM-signed as ${dkim.domain}` +
      `${dkim.generatedFile ? ` with a development key kept in ${dkim.generatedFile}` : ''}; ` +
      `publish this DNS record: ${record.name} ${record.type} "${record.value}"`,
  );
}
for (const warning of configWarnings(config)) console.warn(`Warning: ${warning}`);
