import { ProgressBar } from '@console/shared/ui';
import type { BillingOverview } from '@console/shared/contracts';
import { BillingCard } from './billing-card';
import { formatDateRange, formatUsage } from '@console/shared/format';

/** E-mails sent this period against the plan's volume. */
export function UsageCard({ overview }: { overview: BillingOverview }) {
  const { emailsUsed, emailLimit, periodStart, periodEnd } = overview;
  const usage = formatUsage(emailsUsed, emailLimit);
  const range = formatDateRange(periodStart, periodEnd);
  const full = emailLimit !== null && emailsUsed >= emailLimit;
  return (
    <BillingCard title="E-mail volume">
      {emailLimit === null ? (
        <p className="font-medium text-slate-900">{usage} sent</p>
      ) : (
        <ProgressBar
          value={emailsUsed}
          max={emailLimit}
          label={usage}
          valueText={usage}
          tone={full ? 'danger' : 'brand'}
        />
      )}
      {range && <p className="mt-2 text-slate-500">Current period: {range}</p>}
      {full && (
        <p className="mt-2 font-medium text-red-700">You have used your plan&apos;s e-mail volume for this period.</p>
      )}
    </BillingCard>
  );
}
