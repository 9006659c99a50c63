/** The endpoint's log of attempts, newest first (GET /v1/webhooks/endpoints/{id}/attempts). */
import { sql } from 'drizzle-orm';
import type { WebhookAttempt, WebhookAttemptPage, WebhookDeliveryState } from '../contracts';
import type { Database } from '../db/index';
import { paginate, pageWindow } from '../lib/pagination';
import { intOf, queryRows, textOf, type Row } from '../lib/raw-sql';

/** The count stops here (the log keeps 30 days; counting further would read every row). */
const COUNT_CAP = 10_000;

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

export function attemptOf(row: Row): WebhookAttempt {
  return {
    _id: String(row.id),
    event_id: textOf(row, 'event_id') ?? '',
    type: textOf(row, 'type') ?? '',
    attempt: intOf(row, 'attempt'),
    status_code: row.status_code === null ? null : intOf(row, 'status_code'),
    response_ms: row.response_ms === null ? null : intOf(row, 'response_ms'),
    error: textOf(row, 'error'),
    response_body: textOf(row, 'response_body'),
    at: iso(row.at) ?? '',
    next_attempt_at: iso(row.next_attempt_at),
    state: (textOf(row, 'state') ?? 'pending') as WebhookDeliveryState,
  };
}

export const ATTEMPT_COLUMNS = sql`a.id, d.event_id, d.type, a.attempt, a.status_code, a.response_ms, a.error,
  a.response_body, a.at, a.next_attempt_at, a.state`;

/** One page of the endpoint's attempts (the caller checked the endpoint is the tenant's). */
export async function attemptPage(
  db: Database,
  endpointId: string,
  page: number,
  perPage: number,
): Promise<WebhookAttemptPage> {
  const { offset, limit } = pageWindow(page, perPage);
  const [rows, counted] = await Promise.all([
    queryRows(
      db,
      sql`select ${ATTEMPT_COLUMNS} from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
           where a.endpoint_id = ${endpointId}::uuid order by a.id desc limit ${limit} offset ${offset}`,
    ),
    queryRows(
      db,
      sql`select count(*)::int as n from (select 1 from webhook_attempts
           where endpoint_id = ${endpointId}::uuid limit ${COUNT_CAP}) x`,
    ),
  ]);
  return { records: rows.map(attemptOf), pagination: paginate(page, perPage, intOf(counted[0] ?? {}, 'n')) };
}
