import { Link } from '@console/shared/router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import type { IMPORT_SORT_FIELDS, ImportJob } from '@console/shared/contracts';
import { IMPORTS_KEY, fetchImports } from './api';
import { formatCount, formatDateTime } from '@console/shared/format';
import { STATUS_LABEL, STATUS_TONE } from './import-targets';

type SortField = (typeof IMPORT_SORT_FIELDS)[number];

const count = (key: 'rows_done' | 'created' | 'updated' | 'skipped' | 'failed', header: string) => ({
  key,
  header,
  className: 'tabular-nums',
  render: (job: ImportJob) => formatCount(job[key]),
});

const COLUMNS: DataGridColumn<ImportJob, SortField>[] = [
  {
    key: 'file',
    header: 'File',
    render: (job) => (
      <Link
        to={{ search: `?job=${encodeURIComponent(job._id)}` }}
        className="font-medium text-brand-700 hover:underline"
      >
        {job.file_name}
      </Link>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    render: (job) => (
      <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[job.status]}`}>
        {STATUS_LABEL[job.status]}
      </span>
    ),
  },
  count('rows_done', 'Rows'),
  count('created', 'Created'),
  count('updated', 'Updated'),
  count('skipped', 'Skipped'),
  count('failed', 'Failed'),
  { key: 'date', header: 'Date', sortField: 'created_at', render: (job) => formatDateTime(job.created_at) },
];

/** The tenant's imports, newest first, each linking to its progress page. */
export function RecentImports() {
  const list = useListQuery<SortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const imports = useQuery({
    queryKey: [...IMPORTS_KEY, 'list', list.query],
    queryFn: () => fetchImports(list.query),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="recent-imports" className="mt-10">
      <h2 id="recent-imports" className="mb-3 text-base font-semibold text-slate-900">
        Recent imports
      </h2>
      <QueryGrid<ImportJob, SortField>
        label="Recent imports"
        list={list}
        page={imports.data}
        error={imports.error?.message}
        columns={COLUMNS}
        rowKey={(job) => job._id}
        loading={imports.isFetching}
        empty="No imports yet."
      />
    </section>
  );
}
