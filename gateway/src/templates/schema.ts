/** Templates' tables (spec section 2: engagement/templates and the template designer). */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import type { TemplateKind } from '../contracts';
import { createdAt, updatedAt } from '../db/columns';
import { tenants, users } from '../db/shared-schema';

/** A template: its name and kind, and which of its versions is current (the content lives in the versions). */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<TemplateKind>().notNull().default('marketing'),
    /** The current version's subject and preview text, for the grid (copied with every save). */
    subject: text('subject').notNull().default(''),
    previewText: text('preview_text').notNull().default(''),
    /** The current version. A save made on a stale version is kept as a newer version that is not current. */
    version: integer('version').notNull().default(1),
    /** The highest version number given out (versions are numbered 1, 2, ... per template). */
    lastVersion: integer('last_version').notNull().default(1),
    /**
     * A template of the platform tenant that every community finds in its starter gallery (set by
     * super admins from the platform's Templates screen); meaningless for other tenants' templates.
     */
    inGallery: boolean('in_gallery').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('templates_gallery_idx')
      .on(t.tenantId, sql`lower(${t.name})`)
      .where(sql`${t.inGallery}`),
    index('templates_tenant_updated_idx').on(t.tenantId, t.updatedAt, t.id),
    index('templates_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('templates_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`, t.id),
    check('templates_kind_check', sql`${t.kind} in ('marketing', 'transactional')`),
  ],
);

/** Every content save of a template; the last TEMPLATE_LIMITS.versionsKept (and the current one) are kept. */
export const templateVersions = pgTable(
  'template_versions',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    subject: text('subject').notNull(),
    previewText: text('preview_text').notNull(),
    mjml: text('mjml').notNull(),
    /** The designer's project data (GrapesJS), or null for a template made from MJML alone. */
    project: jsonb('project').$type<Record<string, unknown>>(),
    /** The MJML compiled to HTML with the merge tags left as written, and the plain-text part made from it. */
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** What compiled `html` (renderer revision and public address): another key compiles it again. */
    compiledWith: text('compiled_with').notNull(),
    createdAt: createdAt(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.version] })],
);

export type TemplateRow = typeof templates.$inferSelect;

export type TemplateVersionRow = typeof templateVersions.$inferSelect;
