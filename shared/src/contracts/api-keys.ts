/**
 * API access (spec section 2, account/api-access; permission api_access, feature api_access): a
 * tenant's named, scoped keys, and their audit list. The spec's own calls (section 7,
 * `/v1/tenants/access-keys`) are served beside `/v1/api-keys`.
 */
import * as z from 'zod/mini';
import { listQuery, page, text } from '@console/shared/contracts/core';

/**
 * What a key may do: `full` every tenant-facing permission of the plan except managing users, keys,
 * webhooks, billing, company settings and domains; `sending` transactional e-mails only; `contacts`
 * contacts and lists, read and write.
 */
export const API_KEY_SCOPES = ['full', 'sending', 'contacts'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every secret starts with this, so secret scanners can recognise a leaked key. */
export const API_KEY_PREFIX = 'ck_live_';

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

const Person = z.nullable(z.object({ _id: z.nullable(z.string()), email: z.string() }));

export const ApiKey = z.object({
  _id: z.string(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The start of the secret (`ck_live_` and 8 characters), to tell keys apart; never the secret. */
  prefix: z.string(),
  status: z.enum(API_KEY_STATUSES),
  created_by: Person,
  created_at: z.string(),
  expires_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
  last_used_at: z.nullable(z.string()),
  last_used_ip: z.nullable(z.string()),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer to creating a key: the key and its secret, shown this once and never again. */
export const CreatedApiKey = z.extend(ApiKey, { secret: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const API_KEY_NAME_MAX = 100;
export const API_KEY_NAME_REQUIRED = 'Enter a name for the key.';
export const API_KEY_EXPIRY_PAST = 'Choose an expiry date in the future.';
export const API_KEY_EXPIRY_INVALID = 'Use a date and time such as 2027-01-31T00:00:00Z.';

const KeyName = text(API_KEY_NAME_MAX, `Use at most ${API_KEY_NAME_MAX} characters.`).check(
  z.trim(),
  z.minLength(1, API_KEY_NAME_REQUIRED),
);

/** An instant with its offset (RFC 3339); the gateway also refuses one in the past. */
const Instant = text(40).check(
  z.refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
    API_KEY_EXPIRY_INVALID,
  ),
);

export const CreateApiKeyBody = z.object({
  name: KeyName,
  scope: z.enum(API_KEY_SCOPES, { error: 'Choose full access, sending or contacts.' }),
  expires_at: z.optional(z.nullable(Instant)),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const API_KEY_SORT_FIELDS = ['created_at', 'name', 'last_used_at'] as const;
/** Newest first by default; the search matches the name and the prefix. */
export const ApiKeyQuery = listQuery(API_KEY_SORT_FIELDS, 'created_at');
export type ApiKeyQuery = z.infer<typeof ApiKeyQuery>;
export const ApiKeyPage = page(ApiKey);
export type ApiKeyPage = z.infer<typeof ApiKeyPage>;

export const API_KEY_EVENT_KINDS = ['created', 'first_used', 'revoked', 'expired'] as const;
export type ApiKeyEventKind = (typeof API_KEY_EVENT_KINDS)[number];

export const ApiKeyEvent = z.object({
  _id: z.string(),
  kind: z.enum(API_KEY_EVENT_KINDS),
  key: z.object({ _id: z.string(), name: z.string(), prefix: z.string() }),
  /** Who did it: the creator or the revoker (null for first use and expiry, and once nothing was kept). */
  actor: Person,
  /** first_used: the client address. */
  ip: z.nullable(z.string()),
  created_at: z.string(),
});
export type ApiKeyEvent = z.infer<typeof ApiKeyEvent>;

export const API_KEY_EVENT_SORT_FIELDS = ['created_at'] as const;
export const ApiKeyEventQuery = listQuery(API_KEY_EVENT_SORT_FIELDS, 'created_at');
export type ApiKeyEventQuery = z.infer<typeof ApiKeyEventQuery>;
export const ApiKeyEventPage = page(ApiKeyEvent);
export type ApiKeyEventPage = z.infer<typeof ApiKeyEventPage>;

/**
 * Spec section 7: `POST /v1/tenants/access-keys {action}`. `generate` makes a full-access key (name
 * and scope may be given); `revoke` needs the key's id.
 */
export const AccessKeysAction = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('generate'),
    name: z.optional(KeyName),
    scope: z.optional(z.enum(API_KEY_SCOPES, { error: 'Choose full access, sending or contacts.' })),
    expires_at: z.optional(z.nullable(Instant)),
  }),
  z.object({ action: z.literal('revoke'), id: text(64).check(z.minLength(1, 'Name the key to revoke.')) }),
]);
export type AccessKeysAction = z.infer<typeof AccessKeysAction>;

export const AccessKeysList = z.object({ records: z.array(ApiKey) });
export type AccessKeysList = z.infer<typeof AccessKeysList>;
