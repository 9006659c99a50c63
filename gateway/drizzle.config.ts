import { defineConfig } from 'drizzle-kit';

// `pnpm --filter ./gateway run db:generate` writes a new SQL migration into drizzle/ after a schema change.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
