// `pnpm --filter ./gateway run db:reset`: drop every table, migrate, seed. Uses the same
// configuration as the gateway (DATABASE_URL or the embedded PGlite in the data directory).
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { openDatabase } from '../db/index';
import { seed, seedTemplates } from '../seed';
import { readDemoChain } from '../demo-chain/index';

const config = loadConfig();
const handle = await openDatabase(config);
try {
  await handle.db.execute(sql`drop schema if exists drizzle cascade`);
  await handle.db.execute(sql`drop schema if exists public cascade`);
  await handle.db.execute(sql`create schema public`);
  await handle.migrate();
  const { seeded } = await seed(handle.db, {
    sampleAppletUrl: config.sampleAppletUrl,
    demoChain: readDemoChain(config.dataDir),
  });
  if (seeded) await seedTemplates(handle.db, config.onboarding.publicUrl);
  console.log(`Database reset and seeded (${config.databaseUrl ? 'PostgreSQL' : config.pgliteDir}).`);
} finally {
  await handle.close();
}
