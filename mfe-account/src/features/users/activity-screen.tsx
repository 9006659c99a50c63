import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TeamEvent } from '@console/shared/contracts';
import { PageHeader } from '@console/shared/layout';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import type { ConsoleUser } from '@console/shared/session';
import { TEAM_EVENTS_KEY, fetchTeamEvents } from './api';
import { teamEventText } from './team-event-text';
import { TeamTabs } from './team-tabs';
import { auditColumns } from '../audit/audit-columns';

type EventSortField = 'created_at';

const COLUMNS = auditColumns<TeamEvent>(teamEventText);

/**
 * Manage Users' Activity tab (owners): who invited, changed access, removed, impersonated, changed a
 * password or an e-mail address, and when; newest first, searchable and in pages as every list
 * (spec section 4).
 */
export function ActivityScreen({ me }: { me: ConsoleUser }) {
  const list = useListQuery<EventSortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const events = useQuery({
    queryKey: [...TEAM_EVENTS_KEY, list.query],
    queryFn: () => fetchTeamEvents(list.query),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <PageHeader
        title="Team activity"
        description="Who invited, changed access, removed or acted as a member, and who changed a password or an e-mail address."
      />
      <TeamTabs me={me} />
      <QueryGrid<TeamEvent, EventSortField>
        label="Team activity"
        list={list}
        page={events.data}
        error={events.error?.message}
        search={{ label: 'Search activity', placeholder: 'Search by e-mail address' }}
        columns={COLUMNS}
        rowKey={(e) => e._id}
        loading={events.isFetching}
        empty={list.state.searchString ? 'No activity matches your search.' : 'No activity yet.'}
      />
    </section>
  );
}
