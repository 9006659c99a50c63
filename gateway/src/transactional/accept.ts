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
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';
import { emailAllowance, volumeRefusal } from '../campaigns/index';
import { senderRefusal } from '../domains/index';
import { variablesUsed } from '../templates/index';
import type { TransactionalMessage, TransactionalSettings } from '../contracts';
import { TRANSACTIONAL_LIMITS } from '../contracts';
import { carrierOf } from './carriers';
import { recipientOf } from './recipient';
import { readSettings } from './settings';
import { callerVariables, missingVariables } from './variables';

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
}

interface TemplateInfo {
  id: string;
  name: string;
  version: number;
  variables: string[];
}

/** Variables per template version (a version never changes). */
const variablesByVersion = new Map<string, string[]>();
const VERSIONS_KEPT = 1_000;

/** The tenant's transactional template with the variables its current version needs (404 otherwise). */
export async function transactionalTemplate(db: Queryable, tenantId: string, id: string): Promise<TemplateInfo> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound(TEMPLATE_NOT_FOUND);
  const [row] = await queryRows(
    db,
    sql`select t.id::text, t.name, t.version from templates t
         where t.id = ${id}::uuid and t.tenant_id = ${tenantId}::uuid and t.kind = 'transactional'`,
  );
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  const version = intOf(row, 'version');
  const key = `${id}:${version}`;
  let variables = variablesByVersion.get(key);
  if (!variables) {
    const [v] = await queryRows(
      db,
      sql`select subject, preview_text, mjml from template_versions where template_id = ${id}::uuid and version = ${version}`,
    );
    variables = callerVariables(
      variablesUsed({
        subject: textOf(v ?? {}, 'subject') ?? '',
        preview_text: textOf(v ?? {}, 'preview_text') ?? '',
        mjml: textOf(v ?? {}, 'mjml') ?? '',
      }),
    );
    if (variablesByVersion.size >= VERSIONS_KEPT) variablesByVersion.clear();
    variablesByVersion.set(key, variables);
  }
  return { id: textOf(row, 'id') ?? id, name: textOf(row, 'name') ?? '', version, variables };
}

/** Checks one message; throws the HttpError the caller gets (400 field errors, 404). */
export async function planMessage(
  db: Database,
  config: Config,
  tenantId: string,
  msg: TransactionalMessage,
): Promise<Planned> {
  const errors: FieldErrors = {};
  if (msg.attachments !== undefined) throw badRequest(NO_ATTACHMENTS, { attachments: [NO_ATTACHMENTS] });
  if (JSON.stringify(msg.data).length > TRANSACTIONAL_LIMITS.dataChars)
    throw badRequest(INVALID_INPUT, { data: [DATA_TOO_LARGE] });
  const template = await transactionalTemplate(db, tenantId, msg.template_id);
  const to = recipientOf(msg.to, config.campaigns.walletMailDomain);
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
  if (Object.keys(errors).length > 0) {
    const message = missing.length > 0 ? `Missing merge variables: ${missing.join(', ')}.` : INVALID_INPUT;
    throw badRequest(message, errors);
  }
  if (!to.ok) throw badRequest(INVALID_INPUT, { to: [to.error] });
  const settings = await readSettings(db, template.id);
  const [contact] = await queryRows(
    db,
    to.email
      ? sql`select id::text, status from contacts where tenant_id = ${tenantId}::uuid and email = ${to.email} limit 1`
      : sql`select id::text, status from contacts where tenant_id = ${tenantId}::uuid and wallet = ${to.wallet} limit 1`,
  );
  if (contact && textOf(contact, 'status') === 'unsubscribed' && !settings.send_to_unsubscribed)
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
    contactId: contact ? textOf(contact, 'id') : null,
    data: msg.data,
  };
}

/** 402 when `needed` more messages do not fit in the plan's volume left this period. */
export async function checkVolume(db: Queryable, tenantId: string, needed: number, now: Date): Promise<void> {
  const allowance = await emailAllowance(db, tenantId, now);
  const refusal = volumeRefusal(needed, allowance.limit - allowance.used);
  if (refusal) throw new HttpError(402, refusal);
}

/** Writes a checked message as a queued row of its carrier (call inside the request's transaction). */
export async function writeMessage(tx: Queryable, m: Planned): Promise<void> {
  await tx.execute(
    sql`with seq as (select nextval(pg_get_serial_sequence('campaign_recipients', 'id')) as id),
        row as (
          insert into campaign_recipients (id, occurrence, campaign_id, tenant_id, contact_id, address, channel, status)
          select id, id, ${m.carrierId}::uuid, ${m.tenantId}::uuid, ${m.contactId}::uuid, ${m.address}, ${m.channel}, 'queued'
            from seq
          returning id),
        message as (
          insert into transactional_messages (id, tenant_id, template_id, recipient_id, data)
          select ${m.messageId}::uuid, ${m.tenantId}::uuid, ${m.templateId}::uuid, id, ${JSON.stringify(m.data)}::jsonb from row
          returning 1)
        update campaigns set recipients = recipients + (select count(*) from message) where id = ${m.carrierId}::uuid`,
  );
}

/** The hash an Idempotency-Key is bound to: the route and its body. */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(JSON.stringify(body)).digest('base64url');
}

export type { TransactionalSettings };
