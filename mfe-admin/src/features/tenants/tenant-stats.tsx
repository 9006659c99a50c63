import type { ReactNode } from 'react';
import { BarList, TimeSeriesChart } from '@console/shared/charts';
import type { TenantStats } from '@console/shared/contracts';
import { formatCount, formatDay } from '@console/shared/format';
import { daySeconds, formatCents } from './tenant-format';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * The figures above the grid (GET /v1/tenants/stats with the grid's query, so they describe exactly the
 * tenants it lists): tenants, contacts, e-mails sent, monthly recurring revenue, tenants by plan and new
 * tenants over time. The charts module (@console/shared/charts) loads with this page only.
 */
export function TenantStatsPanel({ stats }: { stats: TenantStats }) {
  return (
    <section aria-label="Tenant figures" className="mb-6 space-y-4">
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure label="Tenants">{formatCount(stats.tenants)}</Figure>
        <Figure label="Contacts">{formatCount(stats.contacts)}</Figure>
        <Figure label="E-mails sent">{formatCount(stats.emails_sent)}</Figure>
        <Figure label="Monthly recurring revenue">{formatCents(stats.mrr_cents, stats.currency)}</Figure>
      </dl>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <BarList
            title="Tenants by plan"
            items={stats.by_plan.map((plan) => ({ label: plan.name, value: plan.tenants }))}
            format={formatCount}
          />
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm lg:col-span-2">
          <TimeSeriesChart
            title="New tenants"
            times={stats.new_tenants.map((point) => daySeconds(point.date))}
            series={[{ label: 'New tenants', values: stats.new_tenants.map((point) => point.value) }]}
            formatTime={(seconds) => formatDay(new Date(seconds * 1000).toISOString())}
            minSpanSeconds={7 * 86_400}
            height={200}
          />
        </div>
      </div>
    </section>
  );
}
