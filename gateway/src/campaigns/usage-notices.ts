/**
 * Plan usage notices (spec section 3: the tenant's `last_warning_sent_date`, `last_limit_sent_date`):
 * at 80 % of the period's e-mail volume the owners get a warning, at 100 % an e-mail saying sending
 * stopped and how to upgrade; each once per billing period. The sender calls `checkUsageNotices`
 * after each committed group of sends.
 *
 * Once per period, even with several senders: the date is claimed by one guarded update (only a
 * date before the period's first day can be replaced), and the e-mails go to whoever claimed it. An
 * e-mail that cannot be sent gives the claim back, so a later check tries again.
 */
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../db/index';
import { tenants, users } from '../db/schema';
import type { Mail, Mailer } from '../mail/mailer';
import { formatDots } from '@console/shared/format';
import { emailAllowance, USAGE_WARNING_SHARE, type EmailAllowance } from './usage';

const day = (date: Date) => date.toISOString().slice(0, 10);

type Notice = 'warning' | 'limit';

function dateColumn(notice: Notice) {
  return notice === 'warning' ? tenants.lastWarningSentDate : tenants.lastLimitSentDate;
}

/** Sets the notice's date to today unless it was already sent this period; true for the one who set it. */
async function claim(db: Database, tenantId: string, notice: Notice, allowance: EmailAllowance, now: Date) {
  const column = dateColumn(notice);
  const claimed = await db
    .update(tenants)
    .set(notice === 'warning' ? { lastWarningSentDate: day(now) } : { lastLimitSentDate: day(now) })
    .where(and(eq(tenants.id, tenantId), or(isNull(column), lt(column, day(allowance.periodStart)))))
    .returning({ id: tenants.id });
  return claimed.length > 0;
}

async function giveBack(db: Database, tenantId: string, notice: Notice, now: Date): Promise<void> {
  const column = dateColumn(notice);
  await db
    .update(tenants)
    .set(notice === 'warning' ? { lastWarningSentDate: null } : { lastLimitSentDate: null })
    .where(and(eq(tenants.id, tenantId), eq(column, day(now))));
}

function greeting(firstName: string): string {
  return firstName ? `Hello ${firstName},` : 'Hello,';
}

const periodEndText = (a: EmailAllowance) => a.periodEnd.toISOString().slice(0, 10);

/** The 80 % warning. */
export function usageWarningMail(to: string, firstName: string, tenantName: string, a: EmailAllowance): Mail {
  const share = Math.floor((a.used / a.limit) * 100);
  const text = `${greeting(firstName)}

${tenantName} has sent ${formatDots(a.used)} of the ${formatDots(a.limit)} e-mails in its plan this period (${share} %).
When the plan's e-mails are used up, sending stops until the period ends on ${periodEndText(a)}.

To send more, upgrade your plan: open Billing in the Community Console and choose Upgrade Your Plan.
`;
  return {
    to,
    subject: `${tenantName} has used ${share} % of its e-mails this period`,
    text,
    html: text
      .trim()
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join('\n'),
  };
}

/** Sending stopped at 100 %. */
export function usageLimitMail(to: string, firstName: string, tenantName: string, a: EmailAllowance): Mail {
  const text = `${greeting(firstName)}

${tenantName} has sent all ${formatDots(a.limit)} e-mails in its plan this period, so sending has stopped.
E-mails that were still to go will not be sent until the period ends on ${periodEndText(a)}.

To send them now, upgrade your plan: open Billing in the Community Console and choose Upgrade Your Plan. The new e-mail volume applies at once.
`;
  return {
    to,
    subject: `${tenantName} has used all its e-mails this period: sending stopped`,
    text,
    html: text
      .trim()
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join('\n'),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, '<br>');
}

/** The tenant's owners (tenant admins), oldest first, and its name. */
async function owners(db: Database, tenantId: string) {
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  const rows = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'tenant_admin')))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(20);
  return { name: tenant?.name ?? '', rows };
}

/**
 * After a group of sends: warns the owners at 80 % of the volume (once per period) and tells them at
 * 100 % that sending stopped (once per period; the warning is then not sent on its own any more).
 */
export async function checkUsageNotices(db: Database, mailer: Mailer, tenantId: string, now: Date): Promise<void> {
  const allowance = await emailAllowance(db, tenantId, now);
  if (allowance.limit <= 0) return;
  const notice: Notice | null =
    allowance.used >= allowance.limit
      ? 'limit'
      : allowance.used >= allowance.limit * USAGE_WARNING_SHARE
        ? 'warning'
        : null;
  if (!notice) return;
  if (!(await claim(db, tenantId, notice, allowance, now))) return;
  // Past the limit the warning would come too late: mark it sent for this period as well.
  if (notice === 'limit') await claim(db, tenantId, 'warning', allowance, now);
  const { name, rows } = await owners(db, tenantId);
  try {
    for (const owner of rows) {
      const mail =
        notice === 'limit'
          ? usageLimitMail(owner.email, owner.firstName, name, allowance)
          : usageWarningMail(owner.email, owner.firstName, name, allowance);
      await mailer.send(mail);
    }
  } catch (error) {
    await giveBack(db, tenantId, notice, now);
    throw error;
  }
}
