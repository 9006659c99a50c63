import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { messageOf } from '@console/shared/api';
import { formatCount, formatDateTime, formatPercent } from '@console/shared/format';
import { TRANSACTIONAL_SORT_FIELDS, type TransactionalTemplate } from '@console/shared/contracts';
import { TRANSACTIONAL_KEY, fetchAdminTransactional, fetchTransactionalTemplates } from './api';
import { transactionalTemplatePath } from './paths';

type SortField = (typeof TRANSACTIONAL_SORT_FIELDS)[number];

const rate = (value: number | null) => (value === null ? '—' : formatPercent(value));

const COLUMNS: DataGridColumn<TransactionalTemplate, SortField>[] = [
  {
    key: 'name',
    header: 'Name',
    sortField: 'name',
    render: (t) => (
      <Link to={transactionalTemplatePath(t._id)} className="font-medium text-brand-700 hover:underline">
        {t.name}
      </Link>
    ),
  },
  { key: 'id', header: 'Template ID', render: (t) => <code className="text-xs text-slate-700">{t._id}</code> },
  {
    key: 'sent',
    header: 'Sent (30 days)',
    render: (t) => formatCount(t.sent_30_days),
    className: 'text-right',
  },
  { key: 'delivery', header: 'Delivery rate', render: (t) => rate(t.delivery_rate), className: 'text-right' },
  { key: 'bounce', header: 'Bounce rate', render: (t) => rate(t.bounce_rate), className: 'text-right' },
  {
    key: 'last',
    header: 'Last sent',
    sortField: 'last_sent_at',
    render: (t) => (t.last_sent_at ? formatDateTime(t.last_sent_at) : 'Never'),
  },
];

/**
 * Transactional E-mails (spec section 2, engagement/transactional-emails): the tenant's transactional
 * templates with the spec's list behaviour and their figures; a template opens its page.
 */
export function TransactionalScreen() {
  const list = useListQuery<SortField>({ defaultSort: { field: 'updated_at', order: 'desc' } });
  const templates = useQuery({
    queryKey: [...TRANSACTIONAL_KEY, 'templates', list.query],
    queryFn: () => fetchTransactionalTemplates(list.query),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <PageHeader
        title="Transactional E-mails"
        description="Receipts and notices your apps send through the API, one template each."
      />
      <QueryGrid<TransactionalTemplate, SortField>
        label="Transactional templates"
        list={list}
        page={templates.data}
        error={templates.error ? messageOf(templates.error, 'The templates could not be loaded.') : null}
        search={{ label: 'Search templates', placeholder: 'Search by name' }}
        columns={COLUMNS}
        rowKey={(t) => t._id}
        loading={templates.isFetching && !templates.data}
        empty={
          list.state.searchString
            ? 'No templates match.'
            : 'No transactional templates yet. Create one in Templates with the kind Transactional.'
        }
      />
    </section>
  );
}

/** The platform admins' view: volume and failures per tenant over the last 30 days, most failing first. */
export function AdminTransactionalScreen() {
  const overview = useQuery({ queryKey: [...TRANSACTIONAL_KEY, 'admin'], queryFn: fetchAdminTransactional });
  const rows = overview.data?.records ?? [];
  return (
    <section className="space-y-4">
      <PageHeader
        title="Transactional"
        description="Transactional e-mails of every community over the last 30 days, the most failing first."
      />
      {overview.isError && (
        <p role="alert" className="text-sm text-red-700">
          {messageOf(overview.error, 'The figures could not be loaded.')}
        </p>
      )}
      {overview.data && rows.length === 0 && <p className="text-sm text-slate-600">No transactional e-mails sent.</p>}
      {rows.length > 0 && (
        <table className="min-w-full rounded-panel border border-slate-200 bg-white text-sm">
          <caption className="sr-only">Transactional e-mails per community</caption>
          <thead className="text-left text-xs text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2">
                Community
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Sent
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Failed
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Bounced
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.tenant_id}>
                <td className="px-3 py-1.5">{r.tenant_name}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatCount(r.sent_30_days)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatCount(r.failed)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatCount(r.bounced)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
