import fs from 'node:fs';
import { defineConfig } from 'drizzle-kit';

// `pnpm --filter ./gateway run db:generate` writes a new SQL migration into drizzle/ after a schema change.
// The tables live beside each area's code (src/<area>/schema.ts) and in src/db/shared-schema.ts; every
// such file is read, so a new area's tables are found the day its schema.ts appears (src/db/schema.ts
// gathers the same files for the code, checked by src/db/schema.test.ts).
const areaSchemas = fs
  .readdirSync('./src', { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'db' && fs.existsSync(`./src/${d.name}/schema.ts`))
  .map((d) => `./src/${d.name}/schema.ts`);

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/shared-schema.ts', ...areaSchemas],
  out: './drizzle',
});
