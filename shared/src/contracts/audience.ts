/**
 * The engagement audience: contacts, lists, custom attributes and CSV imports, as the
 * gateway sends and takes them. One place for the console and the gateway.
 *
 * Wire names follow spec section 3 (`_id`, snake_case fields). Every list response is
 * `{records, pagination}` and every list query is the spec's list query plus filters.
 */
import * as z from 'zod/mini';
import { idText, listQuery, page, text } from '@console/shared/contracts/core';

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

export const CONTACT_STATUSES = ['subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const CONTACT_SOURCES = ['import', 'widget', 'api', 'manual'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

export const ATTRIBUTE_TYPES = ['text', 'number', 'date', 'boolean', 'wallet'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Shape of a wallet address; the gateway also checks the EIP-55 checksum of mixed-case input and stores it checksummed. */
export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;
/** Custom attribute keys: what API callers and CSV mappings use. */
export const ATTRIBUTE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
/** Keys taken by the contact's own fields. */
export const RESERVED_ATTRIBUTE_KEYS = [
  'id',
  '_id',
  'email',
  'wallet',
  'first_name',
  'last_name',
  'name',
  'status',
  'source',
  'lists',
  'list',
  'created_at',
  'updated_at',
] as const;

/** A custom attribute value on the wire: text/wallet/date ('YYYY-MM-DD') as strings, number, boolean. */
export const AttributeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type AttributeValue = z.infer<typeof AttributeValue>;
/** Longest text value of a custom attribute. */
export const MAX_ATTRIBUTE_TEXT = 1000;
/** A custom attribute value as sent (text PostgreSQL can store). */
export const AttributeValueInput = z.union([text(MAX_ATTRIBUTE_TEXT), z.number(), z.boolean(), z.null()]);

// ---------------------------------------------------------------------------------------------
// Contacts
// ---------------------------------------------------------------------------------------------

export const Contact = z.object({
  _id: z.string(),
  /** Checksummed (EIP-55). */
  wallet: z.nullable(z.string()),
  email: z.nullable(z.string()),
  first_name: z.string(),
  last_name: z.string(),
  status: z.enum(CONTACT_STATUSES),
  source: z.enum(CONTACT_SOURCES),
  created_at: z.string(),
  updated_at: z.string(),
  /** Ids of the lists the contact belongs to. */
  lists: z.array(z.string()),
  /** Values by custom attribute key; keys without a value are absent. */
  attributes: z.record(z.string(), AttributeValue),
});
export type Contact = z.infer<typeof Contact>;

/**
 * Create (POST /v1/contacts) and edit (PATCH /v1/contacts/{id}, every field optional there).
 * The gateway answers 400 `{message, errors}` with field keys `email`, `wallet`, `first_name`,
 * `last_name`, `status`, `lists` and `attributes.<key>`; at least one of e-mail and wallet is required,
 * both unique per tenant.
 */
export const ContactInput = z.object({
  email: z.optional(z.nullable(text(254))),
  wallet: z.optional(z.nullable(text(64))),
  first_name: z.optional(text(100)),
  last_name: z.optional(text(100)),
  status: z.optional(z.enum(CONTACT_STATUSES)),
  /** The full set of list ids (replaces memberships). */
  lists: z.optional(z.array(idText()).check(z.maxLength(500))),
  /** Values by attribute key; null clears a value. Keys not given stay as they are. */
  attributes: z.optional(z.record(text(40), AttributeValueInput)),
});
export type ContactInput = z.infer<typeof ContactInput>;

/** Sortable contact columns: each is served by an index (see the gateway's contacts schema). */
export const CONTACT_SORT_FIELDS = ['created_at', 'updated_at', 'email', 'wallet', 'last_name'] as const;
export type ContactSortField = (typeof CONTACT_SORT_FIELDS)[number];

/**
 * Filters of the contacts grid, also the "all that match" selection of bulk actions and the export.
 * `attribute` + `attributeValue`: contacts whose custom attribute equals the value (text: case-insensitive);
 * `attribute` alone: contacts that have any value for it.
 */
export const ContactFilter = z.object({
  searchString: z._default(text(200), ''),
  listId: z.optional(idText()),
  status: z.optional(z.enum(CONTACT_STATUSES)),
  source: z.optional(z.enum(CONTACT_SOURCES)),
  attribute: z.optional(text(40)),
  attributeValue: z.optional(text(200)),
  segmentId: z.optional(idText()),
});
export type ContactFilter = z.infer<typeof ContactFilter>;

export const ContactListQuery = z.extend(listQuery(CONTACT_SORT_FIELDS, 'created_at'), {
  listId: ContactFilter.shape.listId,
  status: ContactFilter.shape.status,
  source: ContactFilter.shape.source,
  attribute: ContactFilter.shape.attribute,
  attributeValue: ContactFilter.shape.attributeValue,
  segmentId: ContactFilter.shape.segmentId,
});
export type ContactListQuery = z.infer<typeof ContactListQuery>;
export const ContactPage = page(Contact);
export type ContactPage = z.infer<typeof ContactPage>;

export const BULK_ACTIONS = ['add_to_list', 'remove_from_list', 'unsubscribe', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Text of spec section 5 when a list action has no list. */
export const SELECT_A_LIST_MESSAGE = 'You must select a list.';

/** Rows picked on a page, or every contact that matches a filter. */
export const ContactSelection = z.union([
  z.object({ ids: z.array(idText()).check(z.minLength(1), z.maxLength(10_000)) }),
  z.object({ filter: ContactFilter }),
]);
export type ContactSelection = z.infer<typeof ContactSelection>;

/** POST /v1/contacts/bulk. `listId` is required for the list actions (400 with SELECT_A_LIST_MESSAGE). */
export const BulkContactsBody = z.object({
  action: z.enum(BULK_ACTIONS),
  listId: z.optional(idText()),
  selection: ContactSelection,
});
export type BulkContactsBody = z.infer<typeof BulkContactsBody>;

/** Result of bulk and membership calls: a message to show and how many contacts changed. */
export const AffectedResponse = z.object({ message: z.string(), affected: z.int() });
export type AffectedResponse = z.infer<typeof AffectedResponse>;

// ---------------------------------------------------------------------------------------------
// Lists (spec section 3: _id, name, autoimport, community_id; plus member count)
// ---------------------------------------------------------------------------------------------

export const List = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  autoimport: z.boolean(),
  community_id: z.nullable(z.string()),
  member_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type List = z.infer<typeof List>;

/** POST /v1/lists, PATCH /v1/lists/{id} (every field optional there). Names are unique per tenant. */
export const ListInput = z.object({
  name: text(100, 'Use at most 100 characters.').check(z.trim(), z.minLength(1, 'Enter a name.')),
  description: z.optional(text(500)),
  autoimport: z.optional(z.boolean()),
});
export type ListInput = z.infer<typeof ListInput>;

export const LIST_SORT_FIELDS = ['created_at', 'name', 'member_count'] as const;
export const ListListQuery = listQuery(LIST_SORT_FIELDS, 'created_at');
export type ListListQuery = z.infer<typeof ListListQuery>;
export const ListPage = page(List);
export type ListPage = z.infer<typeof ListPage>;
/** The spec's all-lists fetch (selects, filters). */
export const ALL_LISTS_PER_PAGE = 1000;

/** PATCH (add) and DELETE (remove) /v1/lists/{id}/contacts. */
export const ListContactsBody = z.object({ contacts: z.array(idText()).check(z.minLength(1), z.maxLength(10_000)) });
export type ListContactsBody = z.infer<typeof ListContactsBody>;

// ---------------------------------------------------------------------------------------------
// Custom attributes
// ---------------------------------------------------------------------------------------------

export const CustomAttribute = z.object({
  _id: z.string(),
  name: z.string(),
  key: z.string(),
  type: z.enum(ATTRIBUTE_TYPES),
  created_at: z.string(),
  /** How many contacts hold a value: on GET /v1/custom-attributes/{id} only (it costs a scan). */
  value_count: z.optional(z.int()),
});
export type CustomAttribute = z.infer<typeof CustomAttribute>;

/** POST /v1/custom-attributes. Keys and types are fixed once created (values depend on them). */
export const CustomAttributeInput = z.object({
  name: text(60, 'Use at most 60 characters.').check(z.trim(), z.minLength(1, 'Enter a name.')),
  key: z
    .string()
    .check(
      z.regex(
        ATTRIBUTE_KEY_PATTERN,
        'Use lower-case letters, digits and underscores, starting with a letter (at most 40).',
      ),
    ),
  type: z.enum(ATTRIBUTE_TYPES),
});
export type CustomAttributeInput = z.infer<typeof CustomAttributeInput>;
/** PATCH /v1/custom-attributes/{id}: rename. */
export const CustomAttributeRename = z.pick(CustomAttributeInput, { name: true });
export type CustomAttributeRename = z.infer<typeof CustomAttributeRename>;

export const ATTRIBUTE_SORT_FIELDS = ['created_at', 'name', 'key'] as const;
export const CustomAttributeListQuery = listQuery(ATTRIBUTE_SORT_FIELDS, 'created_at');
export type CustomAttributeListQuery = z.infer<typeof CustomAttributeListQuery>;
export const CustomAttributePage = page(CustomAttribute);
export type CustomAttributePage = z.infer<typeof CustomAttributePage>;
/** At most this many attributes per tenant (they become grid columns and segment fields). */
export const MAX_ATTRIBUTES_PER_TENANT = 100;

// ---------------------------------------------------------------------------------------------
// CSV import
// ---------------------------------------------------------------------------------------------

/** Where a CSV column goes: a contact field, `attr:<key>` for a custom attribute, or null to ignore it. */
export const IMPORT_FIELDS = ['email', 'wallet', 'first_name', 'last_name', 'status'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const ImportTarget = z.nullable(text(60));
export type ImportTarget = z.infer<typeof ImportTarget>;

export const IMPORT_MODES = ['update', 'skip'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const IMPORT_STATUSES = ['uploaded', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Largest CSV upload. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
/** Longest accepted row; longer rows fail with a reason (a 50 MB line never reaches memory whole). */
export const MAX_IMPORT_ROW_CHARS = 64 * 1024;

export const ImportJob = z.object({
  _id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  file_name: z.string(),
  total_bytes: z.int(),
  bytes_done: z.int(),
  /** Data rows read so far (header excluded). */
  rows_done: z.int(),
  created: z.int(),
  updated: z.int(),
  skipped: z.int(),
  failed: z.int(),
  /** Column targets by column index, as started. */
  mapping: z.array(ImportTarget),
  has_header: z.boolean(),
  mode: z.enum(IMPORT_MODES),
  list_id: z.nullable(z.string()),
  /** Why the whole job failed, when it did. */
  error: z.nullable(z.string()),
  created_at: z.string(),
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
});
export type ImportJob = z.infer<typeof ImportJob>;
export const ImportJobPage = page(ImportJob);
export type ImportJobPage = z.infer<typeof ImportJobPage>;
export const IMPORT_SORT_FIELDS = ['created_at'] as const;
export const ImportListQuery = listQuery(IMPORT_SORT_FIELDS, 'created_at');
export type ImportListQuery = z.infer<typeof ImportListQuery>;

/**
 * POST /v1/imports/{id}/start, after the file was uploaded (POST /v1/imports?fileName=..., body text/csv).
 * A target list is `listId` or a new list named `newListName` (neither: no list).
 * The mapping must map e-mail or wallet (400 `errors.mapping`).
 */
export const StartImportBody = z.object({
  mapping: z.array(ImportTarget).check(z.minLength(1), z.maxLength(500)),
  has_header: z._default(z.boolean(), true),
  mode: z.enum(IMPORT_MODES),
  listId: z.optional(idText()),
  newListName: z.optional(text(100).check(z.trim(), z.minLength(1))),
});
export type StartImportBody = z.infer<typeof StartImportBody>;

/** Bytes the job has read of its file, as a whole percent (0 until started). */
export function importProgress(job: Pick<ImportJob, 'total_bytes' | 'bytes_done' | 'status'>): number {
  if (job.status === 'completed') return 100;
  if (job.total_bytes <= 0) return 0;
  return Math.min(100, Math.floor((job.bytes_done / job.total_bytes) * 100));
}

export function isImportFinished(status: ImportStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
