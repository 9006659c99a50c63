import { useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { messageOf, saveBlob } from '@console/shared/api';
import { Button, ProgressBar, SelectField, Spinner, notify } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { formatCount, formatDateTime } from '@console/shared/format';
import { TimeSeriesChart } from '@console/shared/charts';
import {
  CAMPAIGN_EVENT_TYPES,
  DELIVERY_SORT_FIELDS,
  RECIPIENT_STATUSES,
  type DeliveryRecipient,
} from '@console/shared/contracts';
import { POLL_MS, RECIPIENT_STATUS_LABELS, formatRate, progressOf } from '../campaign-rules';
import { CampaignStatusBadge } from '../status-badge';
import { timelineChart } from './timeline-series';
import type { DeliveryLogSource, LogSummary } from './log-source';

/** uPlot loads with this route only, in its own chunk (ARCHITECTURE.md: a chart loads with its route). */

type SortField = (typeof DELIVERY_SORT_FIELDS)[number];

const EVENT_LABELS: Record<(typeof CAMPAIGN_EVENT_TYPES)[number], string> = {
  sent: 'Sent',
  delivered: 'Delivered',
  deferred: 'Deferred',
  bounced: 'Bounced',
  failed: 'Failed',
  unconfirmed: 'Unconfirmed',
  opened: 'Opened',
  clicked: 'Clicked',
  unsubscribed: 'Unsubscribed',
  complained: 'Marked as spam',
};

function Figures({ summary }: { summary: LogSummary }) {
  const s = summary.stats;
  const cards: [string, string][] = [
    ['Recipients', formatCount(s.recipients)],
    ['Sent', formatCount(s.sent)],
    ['Delivered', formatCount(s.delivered)],
    ['Open rate', formatRate(s.open_rate, s.delivered)],
    ['Click rate', formatRate(s.click_rate, s.delivered)],
    ['Unsubscribed', formatCount(s.unsubscribed)],
    ['Bounced', formatCount(s.bounced)],
    ['Marked as spam', formatCount(s.complained)],
  ];
  // Shown only when some message's delivery could not be confirmed (docs/sending.md): counted in Sent.
  if (s.unconfirmed > 0) cards.push(['Unconfirmed', formatCount(s.unconfirmed)]);
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="log-figures">
        {cards.map(([label, value]) => (
          <div key={label} className="rounded-panel border border-slate-200 bg-white p-4">
            <dt className="text-xs font-medium text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {s.unconfirmed > 0 && (
        <p className="text-sm text-slate-700">
          {formatCount(s.unconfirmed)} {s.unconfirmed === 1 ? 'message was' : 'messages were'} handed to the mail server
          without an answer: {s.unconfirmed === 1 ? 'it' : 'they'} may not have arrived, and{' '}
          {s.unconfirmed === 1 ? 'it is' : 'they are'} not sent again. Filter the recipients by Unconfirmed to see who.
        </p>
      )}
    </div>
  );
}

/** One recipient's timeline, oldest first (machine opens are marked: they do not count in rates). */
function RecipientDialog({
  source,
  recipient,
  open,
  onClose,
}: {
  source: DeliveryLogSource;
  recipient: DeliveryRecipient;
  open: boolean;
  onClose: () => void;
}) {
  const events = useQuery({
    queryKey: [...source.key, 'events', recipient._id],
    queryFn: () => source.events(recipient._id),
    enabled: open,
  });
  return (
    <Dialog open={open} onClose={onClose} title={recipient.address} size="lg" showCloseButton>
      <p className="text-sm text-slate-700">
        {RECIPIENT_STATUS_LABELS[recipient.status]}
        {recipient.channel === 'wallet' ? ' · wallet inbox' : ''}
        {recipient.attempts > 1 ? ` · ${recipient.attempts} attempts` : ''}
      </p>
      {recipient.error && <p className="mt-1 text-sm text-red-700">{recipient.error}</p>}
      {events.isPending && (
        <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="h-4 w-4" decorative /> Loading…
        </p>
      )}
      {events.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {messageOf(events.error, 'The timeline could not be loaded.')}
        </p>
      )}
      {events.data && events.data.records.length === 0 && <p className="mt-4 text-sm text-slate-600">Nothing yet.</p>}
      {events.data && events.data.records.length > 0 && (
        <ol className="mt-4 space-y-2 border-l border-slate-200 pl-4" aria-label="Timeline">
          {events.data.records.map((e, index) => (
            <li key={`${e.at}:${index}`} className="text-sm">
              <span className="font-medium text-slate-900">{EVENT_LABELS[e.type]}</span>
              {e.machine && (
                <span className="ml-2 text-xs text-slate-600">(by a mail client or scanner, not counted)</span>
              )}
              <span className="block text-xs text-slate-600">{formatDateTime(e.at)}</span>
              {e.detail && <span className="block break-all text-xs text-slate-700">{e.detail}</span>}
            </li>
          ))}
        </ol>
      )}
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * The delivery log of one source of sends (spec section 2: engagement/emails/log/:id): figures, a
 * chart over time (or a table), progress while sending, the per-recipient grid with filters, search
 * and CSV export, a recipient's timeline and the links with their clicks. While sending, everything
 * is fetched again every POLL_MS.
 */
export function DeliveryLogScreen({ source }: { source: DeliveryLogSource }) {
  const summary = useQuery({
    queryKey: [...source.key, 'summary'],
    queryFn: source.summary,
    refetchInterval: (query) => (query.state.data?.live ? POLL_MS : false),
    retry: false,
  });
  const live = summary.data?.live ?? false;
  const poll = live ? POLL_MS : false;
  // When a send ends, the last poll may have run before its last messages were counted: fetch the
  // chart, the links and the grid once more so the page shows the finished send, not the one before.
  const queryClient = useQueryClient();
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) {
      for (const part of ['timeline', 'links', 'recipients']) {
        void queryClient.invalidateQueries({ queryKey: [...source.key, part] });
      }
    }
    wasLive.current = live;
  }, [live, queryClient, source.key]);
  const timeline = useQuery({
    queryKey: [...source.key, 'timeline'],
    queryFn: source.timeline,
    refetchInterval: poll,
    enabled: summary.isSuccess,
  });
  const links = useQuery({
    queryKey: [...source.key, 'links'],
    queryFn: source.links,
    refetchInterval: poll,
    enabled: summary.isSuccess,
  });
  const list = useListQuery<SortField>({ defaultSort: { field: 'address', order: 'asc' } });
  const recipients = useQuery({
    queryKey: [...source.key, 'recipients', list.query],
    queryFn: () => source.recipients(list.query),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
    enabled: summary.isSuccess,
  });
  const [chosen, setChosen] = useState<{ recipient: DeliveryRecipient; open: boolean; seq: number } | null>(null);
  const [exporting, setExporting] = useState(false);

  const columns = useMemo<DataGridColumn<DeliveryRecipient, SortField>[]>(
    () => [
      {
        key: 'address',
        header: 'Recipient',
        sortField: 'address',
        render: (r) => (
          <button
            type="button"
            className="text-left font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-label={`Timeline of ${r.address}`}
            onClick={() => setChosen((c) => ({ recipient: r, open: true, seq: (c?.seq ?? 0) + 1 }))}
          >
            {r.address}
          </button>
        ),
      },
      { key: 'status', header: 'Status', render: (r) => RECIPIENT_STATUS_LABELS[r.status] },
      {
        key: 'sent',
        header: 'Sent',
        sortField: 'sent_at',
        render: (r) => (r.sent_at ? formatDateTime(r.sent_at) : '—'),
      },
      { key: 'opened', header: 'Opened', render: (r) => (r.opened_at ? formatDateTime(r.opened_at) : '—') },
      { key: 'clicked', header: 'Clicked', render: (r) => (r.clicked_at ? formatDateTime(r.clicked_at) : '—') },
      {
        key: 'unsubscribed',
        header: 'Unsubscribed',
        render: (r) => (r.unsubscribed_at ? formatDateTime(r.unsubscribed_at) : '—'),
      },
      { key: 'error', header: 'Error', render: (r) => r.error ?? '', className: 'max-w-[16rem] text-xs text-red-700' },
    ],
    [],
  );

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { page: _page, perPage: _perPage, ...filters } = list.query;
      saveBlob(await source.exportCsv(filters), source.exportFileName);
    } catch (error) {
      notify.error(messageOf(error, 'The export failed. Please try again.'));
    } finally {
      setExporting(false);
    }
  };

  if (summary.isPending)
    return (
      <p className="flex items-center gap-2 p-4 text-sm text-slate-600">
        <Spinner className="h-4 w-4" decorative /> Loading the log…
      </p>
    );
  if (summary.isError)
    return (
      <section>
        <PageHeader title="Delivery log" />
        <p role="alert" className="text-sm text-red-700">
          {messageOf(summary.error, 'The log could not be loaded.')}
        </p>
        <Link to={source.back.path} className="mt-4 inline-block text-sm text-brand-700 underline">
          Back to {source.back.label.toLowerCase()}
        </Link>
      </section>
    );

  const s = summary.data;
  const status = list.state.filters.status ?? '';
  const event = list.state.filters.event ?? '';

  return (
    <section className="space-y-6">
      {!source.embedded && (
        <PageHeader
          title={s.name}
          description="Who received it, opened it and clicked."
          actions={
            <span className="flex items-center gap-3">
              <CampaignStatusBadge status={s.status} />
              {s.editPath && (
                <Link to={s.editPath} className="text-sm text-brand-700 underline">
                  Edit
                </Link>
              )}
              <Link to={source.back.path} className="text-sm text-brand-700 underline">
                Back to {source.back.label.toLowerCase()}
              </Link>
            </span>
          }
        />
      )}
      {!source.embedded && s.failure_reason && (
        <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
          {s.failure_reason}
        </p>
      )}
      {!source.embedded && (s.status === 'sending' || s.status === 'paused') && (
        <div className="rounded-panel border border-slate-200 bg-white p-4">
          <ProgressBar
            label={s.status === 'paused' ? 'Paused' : 'Sending'}
            value={progressOf(s.stats.sent, s.stats.recipients)}
            valueText={`${formatCount(s.stats.sent)} of ${formatCount(s.stats.recipients)} sent`}
          />
          <p className="mt-1 text-sm text-slate-700">
            {formatCount(s.stats.sent)} of {formatCount(s.stats.recipients)} sent
          </p>
        </div>
      )}
      <Figures summary={s} />

      <section aria-label="Delivery over time" className="rounded-panel border border-slate-200 bg-white p-4">
        {timeline.isError && (
          <p role="alert" className="text-sm text-red-700">
            {messageOf(timeline.error, 'The figures over time could not be loaded.')}
          </p>
        )}
        {timeline.data && timeline.data.buckets.length === 0 && (
          <p className="text-sm text-slate-600">Nothing has been sent yet.</p>
        )}
        {timeline.data && timeline.data.buckets.length > 0 && (
          <TimeSeriesChart
            title="Delivery over time"
            {...timelineChart(timeline.data, timeline.dataUpdatedAt)}
            formatTime={(seconds) => formatDateTime(new Date(seconds * 1000).toISOString())}
          />
        )}
      </section>

      <section aria-labelledby="log-recipients" className="space-y-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id="log-recipients" className="text-base font-semibold text-slate-900">
            Recipients
          </h2>
          <Button variant="secondary" busy={exporting} onClick={() => void exportCsv()}>
            Export CSV
          </Button>
        </div>
        <QueryGrid<DeliveryRecipient, SortField>
          label="Recipients"
          list={list}
          page={recipients.data}
          error={recipients.error ? messageOf(recipients.error, 'The recipients could not be loaded.') : null}
          search={{ label: 'Search recipients', placeholder: source.searchPlaceholder ?? 'Search by address' }}
          toolbar={
            <>
              <SelectField
                label="Status"
                value={status}
                containerClassName="w-40"
                onChange={(e) => list.setFilter('status', e.target.value)}
              >
                <option value="">All</option>
                {RECIPIENT_STATUSES.map((v) => (
                  <option key={v} value={v}>
                    {RECIPIENT_STATUS_LABELS[v]}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Event"
                value={event}
                containerClassName="w-44"
                onChange={(e) => list.setFilter('event', e.target.value)}
              >
                <option value="">Any</option>
                {CAMPAIGN_EVENT_TYPES.map((v) => (
                  <option key={v} value={v}>
                    {EVENT_LABELS[v]}
                  </option>
                ))}
              </SelectField>
            </>
          }
          columns={columns}
          rowKey={(r) => r._id}
          loading={recipients.isFetching && !recipients.data}
          empty={list.state.searchString || status || event ? 'No recipient matches.' : 'No recipients yet.'}
        />
      </section>

      <section aria-labelledby="log-links" className="rounded-panel border border-slate-200 bg-white p-4">
        <h2 id="log-links" className="text-sm font-semibold text-slate-900">
          Links
        </h2>
        {links.data && links.data.records.length === 0 && (
          <p className="mt-2 text-sm text-slate-600">No links clicked yet.</p>
        )}
        {links.isError && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {messageOf(links.error, 'The links could not be loaded.')}
          </p>
        )}
        {links.data && links.data.records.length > 0 && (
          <table className="mt-2 min-w-full text-sm">
            <caption className="sr-only">Links and their clicks</caption>
            <thead className="text-left text-xs text-slate-700">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  Link
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Clicks
                </th>
                <th scope="col" className="py-2 pl-3 text-right">
                  Unique clicks
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {links.data.records.map((l) => (
                <tr key={l.url}>
                  <td className="max-w-md truncate py-1.5 pr-3 break-all" title={l.url}>
                    {l.url}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{formatCount(l.clicks)}</td>
                  <td className="py-1.5 pl-3 text-right tabular-nums">{formatCount(l.unique_clicks)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {chosen && (
        <RecipientDialog
          key={chosen.seq}
          source={source}
          recipient={chosen.recipient}
          open={chosen.open}
          onClose={() => setChosen((c) => (c ? { ...c, open: false } : c))}
        />
      )}
    </section>
  );
}
