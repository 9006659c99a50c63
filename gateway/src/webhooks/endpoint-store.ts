/**
 * The tenant's webhook endpoints (account/api-access/webhooks): every read and write is scoped by the
 * tenant, so another tenant's endpoint is a 404. The URL is checked (address-policy.ts) on every save
 * that sets it; a 400 names the `url` field.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { WebhookEndpoint, WebhookEndpointUpdateBody, WebhookEventType } from '../contracts';
import type { Database } from '../db/index';
import { webhookEndpoints } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { queryRows, textOf } from '../lib/raw-sql';
import { urlError, type AddressPolicy } from './address-policy';
import { newSecret } from './signing';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** At most this many endpoints per tenant (each event fans out to all of them). */
export const MAX_ENDPOINTS = 20;

export const NOT_FOUND = 'Endpoint not found.';

export interface NewEndpoint {
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
}

interface LastAttempt {
  at: Date | null;
  ok: boolean | null;
}

function wire(row: EndpointRow, last: LastAttempt): WebhookEndpoint {
  return {
    _id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    last_attempt_at: last.at?.toISOString() ?? null,
    last_attempt_ok: last.ok,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The last attempt of each of these endpoints (one index read each: webhook_attempts_endpoint_idx). */
async function lastAttempts(db: Database, ids: string[]): Promise<Map<string, LastAttempt>> {
  const found = new Map<string, LastAttempt>();
  if (ids.length === 0) return found;
  const rows = await queryRows(
    db,
    sql`select e.id::text as endpoint_id, a.at, a.status_code
          from unnest(${`{${ids.join(',')}}`}::uuid[]) as e(id)
          cross join lateral (select at, status_code from webhook_attempts
                               where endpoint_id = e.id order by id desc limit 1) a`,
  );
  for (const row of rows) {
    const code = row.status_code === null ? null : Number(row.status_code);
    found.set(textOf(row, 'endpoint_id') ?? '', {
      at: row.at instanceof Date ? row.at : new Date(String(row.at)),
      ok: code !== null && code >= 200 && code < 300,
    });
  }
  return found;
}

const NONE: LastAttempt = { at: null, ok: null };

/** Sorted unique event types, in the contract's order. */
function eventSet(events: readonly WebhookEventType[]): WebhookEventType[] {
  return [...new Set(events)];
}

async function checkUrl(url: string, policy: AddressPolicy): Promise<void> {
  const error = await urlError(url, policy);
  if (error) throw badRequest('Check the endpoint.', { url: [error] });
}

export class EndpointStore {
  constructor(
    private readonly db: Database,
    private readonly policy: AddressPolicy,
    /** Called after any change of a tenant's endpoints (the "has endpoints" cache). */
    private readonly changed: (tenantId: string) => void,
  ) {}

  private async row(tenantId: string, id: string): Promise<EndpointRow> {
    if (!isUuid(id)) throw notFound(NOT_FOUND);
    const [row] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)));
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async list(tenantId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.tenantId, tenantId))
      .orderBy(desc(webhookEndpoints.createdAt));
    const last = await lastAttempts(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => wire(r, last.get(r.id) ?? NONE));
  }

  async get(tenantId: string, id: string): Promise<WebhookEndpoint> {
    const row = await this.row(tenantId, id);
    const last = await lastAttempts(this.db, [row.id]);
    return wire(row, last.get(row.id) ?? NONE);
  }

  /** The endpoint's row, secret included (delivery, the secret route). */
  async full(tenantId: string, id: string): Promise<EndpointRow> {
    return this.row(tenantId, id);
  }

  async create(tenantId: string, body: NewEndpoint): Promise<WebhookEndpoint> {
    await checkUrl(body.url, this.policy);
    const [count] = await queryRows(
      this.db,
      sql`select count(*)::int as n from webhook_endpoints where tenant_id = ${tenantId}::uuid`,
    );
    if (Number(count?.n ?? 0) >= MAX_ENDPOINTS) {
      throw badRequest(`A community can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
    }
    const [row] = await this.db
      .insert(webhookEndpoints)
      .values({
        tenantId,
        url: body.url,
        description: body.description,
        events: eventSet(body.events),
        enabled: body.enabled,
        secret: newSecret(),
      })
      .returning();
    if (!row) throw new Error('endpoint not inserted');
    this.changed(tenantId);
    return wire(row, NONE);
  }

  async update(tenantId: string, id: string, body: WebhookEndpointUpdateBody): Promise<WebhookEndpoint> {
    const old = await this.row(tenantId, id);
    if (body.url !== undefined && body.url !== old.url) await checkUrl(body.url, this.policy);
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.events === undefined ? {} : { events: eventSet(body.events) }),
        // Enabling again (by a user) clears the reason the gateway disabled it.
        ...(body.enabled === undefined ? {} : { enabled: body.enabled, disabledReason: null }),
        updatedAt: new Date(),
      })
      .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)))
      .returning();
    if (!row) throw notFound(NOT_FOUND);
    this.changed(tenantId);
    return this.get(tenantId, row.id);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    await this.row(tenantId, id);
    await this.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)));
    this.changed(tenantId);
  }

  /** A new secret; the old one stops signing at once. */
  async rotate(tenantId: string, id: string): Promise<string> {
    await this.row(tenantId, id);
    const secret = newSecret();
    await this.db
      .update(webhookEndpoints)
      .set({ secret, updatedAt: new Date() })
      .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)));
    return secret;
  }
}
