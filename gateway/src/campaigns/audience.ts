/**
 * Who a campaign reaches (issue text "Audience"; the count shown is the query the send uses): the
 * contacts of the included lists and segments, each once, minus those of the excluded ones, then
 * left out by status (unsubscribed, bounced, complained), without an address (wallet-only contacts
 * without WALLET_MAIL_DOMAIN), and addresses another contact of the audience has (sent once).
 *
 * Each contact is counted under the first reason that applies, in the order of the AudienceCount
 * contract: excluded, unsubscribed, bounced, complained, no address, duplicate.
 *
 * A minimal version of the compose branch with the pipeline's signature: one statement, not walked
 * in bounded windows. The pipeline's audience.ts (the snapshot's query) replaces this file.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AudienceCount, AudienceSelection } from '../contracts';
import type { Database } from '../db/index';
import { customAttributes, segments } from '../db/schema';
import { badRequest, HttpError, INVALID_INPUT } from '../errors';
import { intOf, queryRows } from '../lib/raw-sql';
import { validIds } from '../lib/db-helpers';
import { segmentCondition } from '../audience/segments/segment-sql';

const FALSE = sql`false`;

/** `contacts.id in (members of these lists of the tenant)`, or false for none. */
function inLists(tenantId: string, ids: readonly string[]): SQL {
  const valid = validIds(ids);
  if (valid.length === 0) return FALSE;
  const list = sql.join(
    valid.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return sql`contacts.id in (select m.contact_id from list_members m join lists l on l.id = m.list_id
                              where l.tenant_id = ${tenantId} and m.list_id in (${list}))`;
}

/** Any of these segments of the tenant matches, or false for none. */
async function inSegments(db: Database, tenantId: string, ids: readonly string[]): Promise<SQL> {
  const valid = validIds(ids);
  if (valid.length === 0) return FALSE;
  const rows = await db
    .select()
    .from(segments)
    .where(and(eq(segments.tenantId, tenantId), inArray(segments.id, valid)));
  if (rows.length === 0) return FALSE;
  const attributes = await db.select().from(customAttributes).where(eq(customAttributes.tenantId, tenantId));
  const conditions = rows.map((row) => {
    try {
      return segmentCondition(row.rule, attributes);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      throw badRequest(INVALID_INPUT, {
        audience: [`The segment "${row.name}" no longer works: ${(error.errors?.rule ?? []).join(' ')}`.trim()],
      });
    }
  });
  return sql`(${sql.join(conditions, sql` or `)})`;
}

export async function countAudience(
  db: Database,
  tenantId: string,
  selection: AudienceSelection,
  walletMailDomain: string | null,
): Promise<AudienceCount> {
  const included = sql`(${inLists(tenantId, selection.include_lists)} or ${await inSegments(db, tenantId, selection.include_segments)})`;
  const excluded = sql`(${inLists(tenantId, selection.exclude_lists)} or ${await inSegments(db, tenantId, selection.exclude_segments)})`;
  const domain = walletMailDomain;
  const [row] = await queryRows(
    db,
    sql`with matched as (
          select case
                   when ${excluded} then 'excluded'
                   when contacts.status = 'unsubscribed' then 'unsubscribed'
                   when contacts.status = 'bounced' then 'bounced'
                   when contacts.status = 'complained' then 'complained'
                   when contacts.email is null and ${domain}::text is null then 'no_address'
                   else 'candidate'
                 end as reason,
                 case when contacts.email is not null then lower(contacts.email)
                      else lower(contacts.wallet) || '@' || ${domain}::text end as address,
                 contacts.email is not null as by_email
            from contacts
           where contacts.tenant_id = ${tenantId} and ${included}
        ),
        addresses as (
          select address, bool_or(by_email) as by_email from matched where reason = 'candidate' group by address
        )
        select (select count(*) from matched)::int as matched,
               (select count(*) from matched where reason = 'excluded')::int as excluded,
               (select count(*) from matched where reason = 'unsubscribed')::int as unsubscribed,
               (select count(*) from matched where reason = 'bounced')::int as bounced,
               (select count(*) from matched where reason = 'complained')::int as complained,
               (select count(*) from matched where reason = 'no_address')::int as no_address,
               (select count(*) from matched where reason = 'candidate')::int as candidates,
               (select count(*) from addresses where by_email)::int as email,
               (select count(*) from addresses where not by_email)::int as wallet`,
  );
  const n = (column: string) => (row ? intOf(row, column) : 0);
  const email = n('email');
  const wallet = n('wallet');
  return {
    matched: n('matched'),
    reachable: email + wallet,
    email,
    wallet,
    excluded: n('excluded'),
    unsubscribed: n('unsubscribed'),
    bounced: n('bounced'),
    complained: n('complained'),
    no_address: n('no_address'),
    duplicates: n('candidates') - email - wallet,
    wallet_mail_domain: domain,
  };
}
