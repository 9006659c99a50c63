import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { messageOf } from '@console/shared/api';
import { consoleStore } from '@console/shared/session';
import { formatCount } from '@console/shared/format';
import { Button } from '@console/shared/ui';
import { WATCHED_CONTRACT_SORT_FIELDS, type OnchainQuota, type WatchedContract } from '@console/shared/contracts';
import { ONCHAIN_KEY, fetchContracts, fetchQuota } from './api';
import { CopyAddress } from './copy-address';
import { smartContractPath } from './paths';
import { WatchStateCell } from './state-badge';
import { WatchContractDialog } from './watch-contract-dialog';
import { FEED_POLL_MS, blockProgress, feedPolls } from './watch-rules';

type SortField = (typeof WATCHED_CONTRACT_SORT_FIELDS)[number];

const COLUMNS: DataGridColumn<WatchedContract, SortField>[] = [
  {
    key: 'name',
    header: 'Name',
    sortField: 'name',
    render: (c) => (
      <Link to={smartContractPath(c._id)} className="font-medium text-brand-700 hover:underline">
        {c.name}
      </Link>
    ),
  },
  { key: 'chain', header: 'Chain', render: (c) => c.chain_name },
  { key: 'address', header: 'Address', render: (c) => <CopyAddress address={c.address} /> },
  {
    key: 'state',
    header: 'State',
    sortField: 'state',
    render: (c) => <WatchStateCell state={c.state} lastError={c.last_error} />,
  },
  {
    key: 'block',
    header: 'Last block',
    render: (c) => <span className="tabular-nums">{blockProgress(c.last_block, c.head_block)}</span>,
  },
  {
    key: 'events',
    header: 'Events',
    render: (c) => formatCount(c.event_count),
    className: 'text-right tabular-nums',
  },
];

/** Over the plan's number of watched contracts (GET /v1/onchain/quota): watching one more opens the upgrade flow. */
export function atLimit(quota: OnchainQuota | undefined): boolean {
  return quota !== undefined && quota.used >= quota.limit;
}

/**
 * Smart Contracts (spec section 2, engagement/smart-contracts; monitor_smart_contracts): the contracts the
 * community watches with their state and progress, refreshed while one is moving; "Watch contract" opens
 * the form, or the upgrade flow once the plan's number is reached.
 */
export function ContractsScreen() {
  const list = useListQuery<SortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const contracts = useQuery({
    queryKey: [...ONCHAIN_KEY, 'contracts', list.query],
    queryFn: () => fetchContracts(list.query),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.records.some((c) => feedPolls(c.state)) ? FEED_POLL_MS : false),
  });
  const quota = useQuery({ queryKey: [...ONCHAIN_KEY, 'quota'], queryFn: fetchQuota });
  const [dialog, setDialog] = useState({ open: false, seq: 0 });

  const openWatch = () => {
    if (atLimit(quota.data)) consoleStore.getState().openUpgrade('monitor_smart_contracts');
    else setDialog((d) => ({ open: true, seq: d.seq + 1 }));
  };

  return (
    <section>
      <PageHeader
        title="Smart Contracts"
        description="Watch your community's contracts: their events become facts about your contacts, for segments."
        actions={
          <Button onClick={openWatch} disabled={quota.isPending}>
            Watch contract
          </Button>
        }
      />
      {quota.data && (
        <p className="mb-3 text-sm text-slate-600" data-testid="onchain-quota">
          {`Watching ${formatCount(quota.data.used)} of the ${formatCount(quota.data.limit)} contracts your plan includes.`}
        </p>
      )}
      <QueryGrid<WatchedContract, SortField>
        label="Watched contracts"
        list={list}
        page={contracts.data}
        error={contracts.error ? messageOf(contracts.error, 'The contracts could not be loaded.') : null}
        search={{ label: 'Search contracts', placeholder: 'Search by name or address' }}
        columns={COLUMNS}
        rowKey={(c) => c._id}
        loading={contracts.isFetching && !contracts.data}
        empty={list.state.searchString ? 'No contracts match.' : 'No contracts watched yet.'}
      />
      <WatchContractDialog
        key={dialog.seq}
        open={dialog.open}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
    </section>
  );
}
