/** Applets' table: the add-on screens the platform offers to tenants. */
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';

/**
 * An applet: an add-on screen the platform offers to tenants, loaded at run time as a Module Federation
 * remote from `manifestUrl` (its `mf-manifest.json`), exposing `module` (e.g. `./Page`). Tenants whose
 * plan is in `planIds`, or whose settings enable it, find it in their sidebar under "Apps" while it is
 * enabled.
 */
export const applets = pgTable(
  'applets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    /** An image URL (uploaded or external https), or null for the default icon. */
    icon: text('icon'),
    manifestUrl: text('manifest_url').notNull(),
    module: text('module').notNull(),
    planIds: uuid('plan_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('applets_slug_idx').on(t.slug), index('applets_created_at_idx').on(t.createdAt)],
);
