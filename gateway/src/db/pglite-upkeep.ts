/**
 * Statistics upkeep for embedded PGlite, as a recurring job. PGlite has no autovacuum, so nothing
 * analyzes a table after it grows: after a large import the planner still takes the tenant for a
 * handful of rows and sorts where it should walk an index. Each minute this job analyzes the
 * audience tables that changed by more than ANALYZE_THRESHOLD rows plus ANALYZE_SCALE of their size
 * (autovacuum's own rule), sampling few rows (statistics target 10, the columns the grid's filters
 * and tenant scope read): a bounded statement whatever the table's size, where a full ANALYZE at the
 * default target grows with it (bench/README.md, "PGlite's statistics upkeep"). The statements
 * that must walk an index do not count on it (storage.ts's readInIndexOrder).
 */
import { sql } from 'drizzle-orm';
import { isPglite } from './engine';
import { queryRows, textOf, intOf } from '../lib/raw-sql';
import type { Database } from './database';

export const UPKEEP_QUEUE = 'db.upkeep';
const ANALYZE_THRESHOLD = 500;
const ANALYZE_SCALE = 0.1;
const STATISTICS_TARGET = 10;

/** The tables kept analyzed, and the columns sampled. */
const TABLES: Record<string, string> = {
  contacts: 'tenant_id, status, source, created_at, updated_at',
  list_members: 'list_id, contact_id',
};

/** Analyzes the tables that changed enough since they were last analyzed; returns their names. */
export async function analyzeChangedTables(db: Database): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`select relname, n_mod_since_analyze, n_live_tup from pg_stat_user_tables
        where schemaname = 'public' and relname in (${sql.join(
          Object.keys(TABLES).map((t) => sql`${t}`),
          sql`, `,
        )})`,
  );
  const analyzed: string[] = [];
  for (const row of rows) {
    const table = textOf(row, 'relname') ?? '';
    const columns = TABLES[table];
    if (!columns) continue;
    if (intOf(row, 'n_mod_since_analyze') <= ANALYZE_THRESHOLD + ANALYZE_SCALE * intOf(row, 'n_live_tup')) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('default_statistics_target', ${String(STATISTICS_TARGET)}, true)`);
      // Names from TABLES above, never from input.
      await tx.execute(sql.raw(`analyze ${table} (${columns})`));
    });
    analyzed.push(table);
  }
  return analyzed;
}

/** Recurring work the storage engine needs, for the composition root to schedule on the job runner. */
export interface DatabaseUpkeep {
  queue: string;
  /** When it runs (cron, UTC). */
  cron: string;
  run: () => Promise<void>;
}

/** On embedded PGlite: {@link analyzeChangedTables} each minute. None on a PostgreSQL server (its autovacuum analyzes). */
export function databaseUpkeep(db: Database): DatabaseUpkeep | null {
  if (!isPglite(db)) return null;
  return { queue: UPKEEP_QUEUE, cron: '* * * * *', run: async () => void (await analyzeChangedTables(db)) };
}
