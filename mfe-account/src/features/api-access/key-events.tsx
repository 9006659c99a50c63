import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiKeyEvent } from '@console/shared/contracts';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import { KEY_EVENTS_KEY, fetchKeyEvents } from './api';
import { eventText } from './key-texts';
import { auditColumns } from '../audit/audit-columns';

type EventSortField = 'created_at';

const COLUMNS = auditColumns<ApiKeyEvent>(eventText);

/** The keys' audit list: created, first used, revoked, expired; newest first, searchable, in pages. */
export function KeyEvents() {
  const list = useListQuery<EventSortField>({ defaultSort: { field: 'created_at', order: 'desc' }, storage: null });
  const events = useQuery({
    queryKey: [...KEY_EVENTS_KEY, list.query],
    queryFn: () => fetchKeyEvents(list.query),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="api-key-events" className="mt-8">
      <h2 id="api-key-events" className="mb-3 text-lg font-semibold text-slate-900">
        Key activity
      </h2>
      <QueryGrid<ApiKeyEvent, EventSortField>
        label="Key activity"
        list={list}
        page={events.data}
        error={events.error?.message}
        search={{ label: 'Search key activity', placeholder: 'Search by key or e-mail' }}
        columns={COLUMNS}
        rowKey={(e) => e._id}
        loading={events.isFetching}
        empty={list.state.searchString ? 'No activity matches your search.' : 'No key activity yet.'}
      />
    </section>
  );
}
