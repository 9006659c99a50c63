/**
 * Accepting transactional messages (POST /v1/transactional/send and /batch; docs/transactional.md):
 * each message is checked (its template, recipient, merge variables, sender, the unsubscribed rule,
 * the plan's volume), then written as a queued row of its carrier (carriers.ts) with its data, in one
 * transaction with the Idempotency-Key's answer; the carrier's run is queued after the commit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { badRequest, HttpError, INVALID_INPUT, notFound, type FieldErrors } from '../errors';
import { queryRows, type Queryable } from '../lib/raw-sql';
import { emailAllowance, volumeRefusal } from '../campaigns/index';
import { senderRefusal } from '../domains/index';
import type { TransactionalMessage, TransactionalSettings } from '../contracts';
import { TRANSACTIONAL_LIMITS } from '../contracts';
import { carrierOf } from './carriers';
import { recipientOf } from './recipient';
import { templateFacts } from './template-cache';
import { missingVariables } from './variables';

export const TEMPLATE_NOT_FOUND = 'Template not found.';
export const NO_ATTACHMENTS = 'Attachments are not accepted: put a link to the file in the message instead.';
export const UNSUBSCRIBED =
  'This address unsubscribed from your e-mails, and this template does not send to unsubscribed contacts (its settings).';
export const DATA_TOO_LARGE = `The data is too large: at most ${TRANSACTIONAL_LIMITS.dataChars.toLocaleString('en')} characters as JSON.`;

/** A checked message, ready to be written. */
export interface Planned {
  messageId: string;
  tenantId: string;
  templateId: string;
  carrierId: string;
  address: string;
  channel: 'email' | 'wallet';
  contactId: string | null;
  data: Record<string, unknown>;
  /**
   * The contact is looked up by the write itself (the send route: one statement instead of a read and
   * a write): the address to look up, and whether an unsubscribed contact refuses the message.
   */
  lookup?: { email: string | null; wallet: string | null; refuseUnsubscribed: boolean };
}

interface TemplateInfo {
  id: string;
  name: string;
  version: number;
  variables: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant's transactional template with the variables its current version needs (404 otherwise). */
export async function transactionalTemplate(db: Database, tenantId: string, id: string): Promise<TemplateInfo> {
  if (!UUID.test(id)) throw notFound(TEMPLATE_NOT_FOUND);
  const facts = await templateFacts(db, tenantId, id);
  if (!facts) throw notFound(TEMPLATE_NOT_FOUND);
  return { id: facts.id, name: facts.name, version: facts.version, variables: facts.variables };
}

/** Whether any of these templates no longer exists (read, not from memory: a deletion just committed). */
export async function anyTemplateGone(db: Queryable, ids: string[]): Promise<boolean> {
  const unique = [...new Set(ids)];
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n from templates where id = any(${`{${unique.join(',')}}`}::uuid[])`,
  );
  return Number(row?.n ?? 0) < unique.length;
}

/** A recipient's address looked up among the tenant's contacts (contact-lookups.ts). */
export type ContactLookup = (
  tenantId: string,
  to: { email: string | null; wallet: string | null },
) => Promise<{
  id: string;
  status: string | null;
} | null>;

/** Checks one message; throws the HttpError the caller gets (400 field errors, 404). */
export async function planMessage(
  db: Database,
  config: Config,
  tenantId: string,
  msg: TransactionalMessage,
  contactOf: ContactLookup | 'in-write',
): Promise<Planned> {
  const errors: FieldErrors = {};
  if (msg.attachments !== undefined) throw badRequest(NO_ATTACHMENTS, { attachments: [NO_ATTACHMENTS] });
  if (JSON.stringify(msg.data).length > TRANSACTIONAL_LIMITS.dataChars)
    throw badRequest(INVALID_INPUT, { data: [DATA_TOO_LARGE] });
  const to = recipientOf(msg.to, config.campaigns.walletMailDomain);
  if (!UUID.test(msg.template_id)) throw notFound(TEMPLATE_NOT_FOUND);
  // The template from memory (template-cache.ts), the contact by a read shared with concurrent sends.
  const [template, contact] = await Promise.all([
    templateFacts(db, tenantId, msg.template_id),
    to.ok && contactOf !== 'in-write' ? contactOf(tenantId, to) : null,
  ]);
  if (!template) throw notFound(TEMPLATE_NOT_FOUND);
  const settings = template.settings;
  if (!to.ok) errors.to = [to.error];
  const missing = missingVariables(template.variables, msg.data);
  for (const name of missing) errors[`data.${name}`] = ['This merge variable is missing.'];
  const platformFrom = config.campaigns.defaultFrom;
  const from = (msg.from ?? '').trim().toLowerCase();
  if (from) {
    const refusal = await senderRefusal(db, tenantId, from, platformFrom);
    if (refusal) errors.from = [refusal];
  }
  const replyTo = (msg.reply_to ?? '').trim().toLowerCase();
  if (replyTo && !recipientOf(replyTo, null).ok) errors.reply_to = ['Give an e-mail address.'];
  if (Object.keys(errors).length > 0 || !to.ok) {
    const message = missing.length > 0 ? `Missing merge variables: ${missing.join(', ')}.` : INVALID_INPUT;
    throw badRequest(message, errors);
  }
  if (contact?.status === 'unsubscribed' && !settings.send_to_unsubscribed)
    throw badRequest(UNSUBSCRIBED, { to: [UNSUBSCRIBED] });
  const carrierId = await carrierOf(
    db,
    {
      tenantId,
      templateId: template.id,
      templateName: template.name,
      templateVersion: template.version,
      fromEmail: from,
      replyTo,
    },
    settings,
  );
  return {
    messageId: randomUUID(),
    tenantId,
    templateId: template.id,
    carrierId,
    address: to.address,
    channel: to.channel,
    contactId: contact?.id ?? null,
    data: msg.data,
    ...(contactOf === 'in-write'
      ? { lookup: { email: to.email, wallet: to.wallet, refuseUnsubscribed: !settings.send_to_unsubscribed } }
      : {}),
  };
}

/**
 * The plan's volume left per tenant, read again at most every ALLOWANCE_MS (as the campaign sender
 * reads it) and counted down by the messages this process accepts meanwhile.
 */
const allowances = new Map<string, { left: number; readAt: number }>();
const ALLOWANCE_MS = 1_000;

/** 402 when `needed` more messages do not fit in the plan's volume left this period. */
export async function checkVolume(db: Queryable, tenantId: string, needed: number, now: Date): Promise<void> {
  let known = allowances.get(tenantId);
  if (!known || Date.now() - known.readAt >= ALLOWANCE_MS || known.left < needed) {
    const allowance = await emailAllowance(db, tenantId, now);
    known = { left: allowance.limit - allowance.used, readAt: Date.now() };
    if (allowances.size >= 10_000) allowances.clear();
    allowances.set(tenantId, known);
  }
  const refusal = volumeRefusal(needed, known.left);
  if (refusal) throw new HttpError(402, refusal);
  known.left -= needed;
}

/** A request's writes: its checked messages and, with an Idempotency-Key, the key's answer. */
export interface Accepted {
  tenantId: string;
  planned: Planned[];
  idempotency: { key: string; status: number; body: unknown } | null;
}

/**
 * Writes accepted requests (one, or those a group commit gathered): their messages as queued rows of
 * their carriers with their data, the carriers' recipient counts and the keys' answers, in one
 * statement, so all of it commits or none does. A message planned with `lookup` has its contact looked
 * up here; one whose contact is unsubscribed while its template refuses them is not written, nor is its
 * request's key answered: answers, per request, whether it was refused so.
 */
export async function writeMessages(db: Queryable, accepted: Accepted[]): Promise<boolean[]> {
  const messages = accepted.flatMap((a) =>
    a.planned.map((m) => ({
      mid: m.messageId,
      tenant: m.tenantId,
      carrier: m.carrierId,
      contact: m.contactId,
      address: m.address,
      channel: m.channel,
      template: m.templateId,
      data: m.data,
      look_email: m.lookup ? m.lookup.email : null,
      look_wallet: m.lookup ? m.lookup.wallet : null,
      refuse_unsub: m.lookup?.refuseUnsubscribed ?? false,
    })),
  );
  const keys = accepted.flatMap((a) =>
    a.idempotency
      ? [
          {
            tenant: a.tenantId,
            key: a.idempotency.key,
            status: a.idempotency.status,
            answer: a.idempotency.body,
            mids: a.planned.map((m) => m.messageId),
          },
        ]
      : [],
  );
  const [row] = await queryRows(
    db,
    sql`with given as (
          select u.* from jsonb_to_recordset(${JSON.stringify(messages)}::jsonb)
                 as u(mid uuid, tenant uuid, carrier uuid, contact uuid, address text, channel text, template uuid,
                      data jsonb, look_email text, look_wallet text, refuse_unsub boolean)),
        looked as (
          select g.*, coalesce(g.contact, k.id) as contact_id, k.status as contact_status
            from given g
            left join lateral (
              (select c.id, c.status from contacts c
                where g.look_email is not null and c.tenant_id = g.tenant and c.email = g.look_email limit 1)
              union all
              (select c.id, c.status from contacts c
                where g.look_email is null and g.look_wallet is not null and c.tenant_id = g.tenant
                  and c.wallet = g.look_wallet limit 1)
              limit 1) k on true),
        refused as (select mid from looked where refuse_unsub and contact_status = 'unsubscribed'),
        input as (
          select l.*, nextval(pg_get_serial_sequence('campaign_recipients', 'id')) as rid
            from looked l where not (l.refuse_unsub and l.contact_status is not distinct from 'unsubscribed')),
        rows as (
          insert into campaign_recipients (id, occurrence, campaign_id, tenant_id, contact_id, address, channel, status)
          select rid, rid, carrier, tenant, contact_id, address, channel, 'queued' from input
          returning id),
        messages as (
          insert into transactional_messages (id, tenant_id, template_id, recipient_id, data)
          select mid, tenant, template, rid, data from input
          returning 1),
        counted as (
          update campaigns c set recipients = c.recipients + k.n
            from (select carrier, count(*)::int as n from input group by carrier) k
           where c.id = k.carrier
          returning 1),
        answered as (
          update transactional_idempotency i set status = k.status, answer = k.answer
            from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
                 as k(tenant uuid, key text, status int, answer jsonb, mids uuid[])
           where i.tenant_id = k.tenant and i.key = k.key
             and not exists (select 1 from refused r where r.mid = any(k.mids))
          returning 1)
        select (select count(*) from rows)::int as rows, (select count(*) from messages)::int as messages,
               (select count(*) from counted)::int as counted, (select count(*) from answered)::int as answered,
               coalesce((select array_agg(mid::text) from refused), '{}') as refused`,
  );
  const refused = new Set(
    String(row?.refused ?? '{}')
      .replace(/[{}]/g, '')
      .split(',')
      .filter(Boolean),
  );
  return accepted.map((a) => a.planned.some((m) => refused.has(m.messageId)));
}

/** The hash an Idempotency-Key is bound to: the route and its body. */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(JSON.stringify(body)).digest('base64url');
}

export type { TransactionalSettings };
