import { useQuery } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import { BarList, TimeSeriesChart } from '@console/shared/charts';
import { Overview, type ContactSource } from '@console/shared/contracts';
import { formatCount, formatDay, formatUsage } from '@console/shared/format';
import type { ConsoleUser } from '@console/shared/session';
import { ProgressBar } from '@console/shared/ui';

const SOURCE_LABELS: Record<ContactSource, string> = {
  import: 'Imported',
  widget: 'Sign-up widgets',
  api: 'API',
  manual: 'Added by hand',
};

/** '42.5%' from a 0..1 rate. */
export function ratePercent(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toLocaleString('en-US')}%`;
}

/** Usage against the plan: 'danger' from 100 %, a warning tone from the 80 % mark (the owner is e-mailed then). */
export function usageTone(sent: number, limit: number, warningAt: number): 'brand' | 'danger' {
  return limit > 0 && (sent >= limit || sent >= warningAt) ? 'danger' : 'brand';
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      {children}
    </section>
  );
}

/**
 * The figures a community manager opens the console for (route `overview`, spec section 2): contacts
 * over time and by source, the last campaigns' open and click rates, e-mail usage against the plan.
 * Each part shows only with the permission of the screen it summarises (usage: every tenant user).
 */
export function OverviewFigures({ user }: { user: ConsoleUser }) {
  const overview = useQuery({
    queryKey: ['overview', user.tenant_id],
    queryFn: () => api.get('/v1/overview', Overview),
  });
  if (overview.isError) return <p className="mt-6 text-sm text-red-700">The figures could not be loaded.</p>;
  const data = overview.data;
  if (!data) return <p className="mt-6 text-sm text-slate-600">Loading your figures…</p>;
  const contacts = user.permissions.includes('manage_contacts');
  const emails = user.permissions.includes('view_engagement_emails');
  const { usage } = data;
  return (
    <div className="mt-6 grid gap-4 lg:grid-cols-2">
      <Card title="E-mails this period">
        <ProgressBar
          label="E-mails sent this period"
          value={usage.sent}
          max={Math.max(usage.limit, 1)}
          valueText={formatUsage(usage.sent, usage.limit)}
          tone={usageTone(usage.sent, usage.limit, usage.warning_at)}
        />
        <p className="mt-2 text-sm text-slate-600">
          {formatUsage(usage.sent, usage.limit)} · {formatDay(usage.period_start)} – {formatDay(usage.period_end)}
          {usage.reserved > 0 && <> · {formatCount(usage.reserved)} more on their way</>}
        </p>
      </Card>
      {contacts && (
        <Card title="Contacts">
          <p className="text-3xl font-semibold text-slate-900" data-testid="overview-contacts">
            {formatCount(data.contacts.total)}
          </p>
          <p className="text-sm text-slate-600">contacts</p>
          <div className="mt-3">
            <BarList
              title="Contacts by source"
              items={data.contacts.by_source.map((s) => ({ label: SOURCE_LABELS[s.source], value: s.count }))}
              format={formatCount}
            />
          </div>
        </Card>
      )}
      {contacts && (
        <div className="lg:col-span-2">
          <Card title="Contacts over time">
            <TimeSeriesChart
              title="Contacts over the last 90 days"
              times={data.contacts.days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000)}
              series={[
                { label: 'Contacts', values: data.contacts.days.map((d) => d.total) },
                { label: 'Added', values: data.contacts.days.map((d) => d.added) },
              ]}
              formatTime={(s) => formatDay(new Date(s * 1000).toISOString())}
              minSpanSeconds={7 * 86_400}
            />
          </Card>
        </div>
      )}
      {emails && (
        <div className="lg:col-span-2">
          <Card title="Last campaigns">
            {data.campaigns.length === 0 ? (
              <p className="text-sm text-slate-600">
                No e-mail has been sent yet. Its open and click rates will show here.
              </p>
            ) : (
              <div className="grid gap-4 md:grid-cols-2">
                <BarList
                  title="Open rate of the last campaigns"
                  items={data.campaigns.map((c) => ({ label: c.name, value: c.stats.open_rate }))}
                  format={ratePercent}
                />
                <BarList
                  title="Click rate of the last campaigns"
                  items={data.campaigns.map((c) => ({ label: c.name, value: c.stats.click_rate }))}
                  format={ratePercent}
                />
              </div>
            )}
          </Card>
        </div>
      )}
    </div>
  );
}
