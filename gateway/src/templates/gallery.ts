/**
 * The starter gallery's platform designs (spec section 2: the super-admin sidebar's Templates lead to the
 * platform tenant's own templates, and those manage the starter gallery every community sees). A super
 * admin puts one of the platform tenant's templates in the gallery; every community then finds it next
 * to the built-in starters and creates a template from a copy of its current content. Only templates of
 * the caller's own tenant can be put in, and only super admins do it (every super admin belongs to the
 * platform tenant, docs/decisions.md "Choices where the spec is silent").
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { GalleryTemplate } from '../contracts';
import type { Database } from '../db/index';
import { templates } from '../db/schema';
import { badRequest, forbidden, INVALID_INPUT } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { templateRow, versionRow } from './template-store';

/** How many platform designs the gallery lists (it is a gallery, not a grid). */
export const GALLERY_MAX = 100;
export const GALLERY_SUPER_ADMINS_ONLY = 'Only platform admins put templates in the starter gallery.';
export const NOT_IN_GALLERY = 'This design is no longer in the starter gallery: choose another one.';

/** The platform's gallery designs, by name. */
export async function galleryTemplates(db: Database): Promise<GalleryTemplate[]> {
  const rows = await db
    .select({ id: templates.id, name: templates.name, subject: templates.subject, kind: templates.kind })
    .from(templates)
    .where(eq(templates.inGallery, true))
    .orderBy(asc(sql`lower(${templates.name})`), asc(templates.id))
    .limit(GALLERY_MAX);
  return rows.map((r) => ({ _id: r.id, name: r.name, subject: r.subject, kind: r.kind }));
}

/** PUT /v1/templates/{id}/gallery: a super admin puts their tenant's template in the gallery or takes it out. */
export async function setInGallery(
  db: Database,
  caller: { role: string; tenantId: string },
  id: string,
  inGallery: boolean,
): Promise<{ in_gallery: boolean }> {
  if (caller.role !== 'super_admin') throw forbidden(GALLERY_SUPER_ADMINS_ONLY);
  const row = await templateRow(db, caller.tenantId, id);
  await db.update(templates).set({ inGallery }).where(eq(templates.id, row.id));
  return { in_gallery: inGallery };
}

/** The current content of a gallery design, to copy into a new template; a 400 when it left the gallery. */
export async function galleryContent(db: Database, id: string) {
  const [row] = isUuid(id)
    ? await db
        .select({ id: templates.id, version: templates.version, kind: templates.kind })
        .from(templates)
        .where(and(eq(templates.id, id), eq(templates.inGallery, true)))
    : [];
  if (!row) throw badRequest(INVALID_INPUT, { gallery_id: [NOT_IN_GALLERY] });
  const version = await versionRow(db, row.id, row.version);
  return {
    kind: row.kind,
    content: {
      subject: version.subject,
      preview_text: version.previewText,
      mjml: version.mjml,
      project: version.project,
    },
  };
}
