import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, messageOf } from '@console/shared/api';
import { BarList, TimeSeriesChart } from '@console/shared/charts';
import { PlatformDashboard as Dashboard } from '@console/shared/contracts';
import { formatCount, formatDay } from '@console/shared/format';
import { Button } from '@console/shared/ui';
import { ratePercent } from './overview-figures';
import { PlatformSenders } from './platform-senders';

/** Cents in the dashboard's currency: '$1,234.50'. */
export function formatCents(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

const seconds = (day: string) => Date.parse(day.length === 10 ? `${day}T00:00:00Z` : day) / 1000;
const dayOf = (s: number) => formatDay(new Date(s * 1000).toISOString());

function Card({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <section
      aria-label={title}
      className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${wide ? 'lg:col-span-2' : ''}`}
    >
      {children}
    </section>
  );
}

/**
 * The super admin's Dashboard (route `overview`, the admin sidebar's first entry, spec section 2): the
 * platform at a glance from GET /v1/admin/dashboard — tenants by plan, new and churned tenants, monthly
 * recurring revenue, e-mails sent per day, and each sender's bounce and complaint rates with the worst
 * flagged. The charts come with this page's chunk (like the tenant overview's), not with the shell's start.
 */
export function PlatformDashboard() {
  const dashboard = useQuery({
    queryKey: ['admin', 'dashboard'],
    queryFn: () => api.get('/v1/admin/dashboard', Dashboard),
  });
  if (dashboard.isError)
    return (
      <div role="alert" className="mt-6 text-sm text-red-700">
        <p>{messageOf(dashboard.error, 'The dashboard could not be loaded.')}</p>
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void dashboard.refetch()}>
          Retry
        </Button>
      </div>
    );
  const data = dashboard.data;
  if (!data) return <p className="mt-6 text-sm text-slate-600">Loading the dashboard…</p>;
  const tenants = data.tenants_by_plan.reduce((sum, plan) => sum + plan.tenants, 0);
  const sent = data.emails_sent.reduce((sum, day) => sum + day.value, 0);
  const flagged = data.senders.filter((sender) => sender.flagged).length;
  return (
    <div className="mt-6 space-y-4" data-testid="platform-dashboard">
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[
          ['Tenants', formatCount(tenants)],
          ['Monthly recurring revenue', formatCents(data.mrr_cents, data.currency)],
          ['E-mails sent, last 30 days', formatCount(sent)],
          ['Flagged senders', formatCount(flagged)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Tenants by plan">
          <BarList
            title="Tenants by plan"
            items={data.tenants_by_plan.map((plan) => ({ label: plan.name, value: plan.tenants }))}
            format={formatCount}
          />
        </Card>
        <Card title="New and churned tenants">
          <TimeSeriesChart
            title="New and churned tenants, last 90 days"
            times={data.new_tenants.map((point) => seconds(point.date))}
            series={[
              { label: 'New tenants', values: data.new_tenants.map((point) => point.value) },
              {
                label: 'Churned tenants',
                values: data.new_tenants.map(
                  (point) => data.churned_tenants.find((c) => c.date === point.date)?.value ?? 0,
                ),
              },
            ]}
            formatTime={dayOf}
            minSpanSeconds={7 * 86_400}
            height={200}
          />
        </Card>
        <Card title="E-mails sent per day" wide>
          <TimeSeriesChart
            title="E-mails sent per day, last 30 days"
            times={data.emails_sent.map((point) => seconds(point.date))}
            series={[{ label: 'E-mails sent', values: data.emails_sent.map((point) => point.value) }]}
            formatTime={dayOf}
            minSpanSeconds={7 * 86_400}
            height={200}
          />
        </Card>
        <Card title="Senders" wide>
          <PlatformSenders senders={data.senders} formatRate={ratePercent} />
        </Card>
      </div>
    </div>
  );
}
