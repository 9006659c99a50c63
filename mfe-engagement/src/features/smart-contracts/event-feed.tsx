import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { messageOf } from '@console/shared/api';
import { formatDateTime, shortenAddress } from '@console/shared/format';
import type { ContractEvent, WatchedContractDetail } from '@console/shared/contracts';
import { ONCHAIN_KEY, fetchContractEvents } from './api';
import { contactPath } from './paths';
import { argumentFormat, formatBlock, type ArgumentFormat } from './watch-rules';

type SortField = 'block_number';

function argumentText(value: ContractEvent['args'][string]): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return String(value);
}

function ArgumentsCell({ event, format }: { event: ContractEvent; format: ArgumentFormat }) {
  const entries = Object.entries(event.args);
  if (entries.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {entries.map(([name, value]) => {
        const shown = format(event.event_name, name, argumentText(value));
        return (
          <div key={name} className="contents">
            <dt className="text-slate-600">{name}</dt>
            <dd
              className="font-mono break-all text-slate-900"
              title={shown.raw ? `${shown.raw} (smallest unit)` : undefined}
            >
              {shown.text}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function TransactionCell({ event }: { event: ContractEvent }) {
  const short = shortenAddress(event.tx_hash);
  if (!event.tx_url)
    return (
      <span title={event.tx_hash} className="font-mono text-xs">
        {short}
      </span>
    );
  return (
    <a
      href={event.tx_url}
      target="_blank"
      rel="noopener noreferrer"
      title={event.tx_hash}
      aria-label={`Transaction ${event.tx_hash} on the explorer (opens in a new tab)`}
      className="font-mono text-xs text-brand-700 underline"
    >
      {short}
    </a>
  );
}

function ContactsCell({ contacts }: { contacts: ContractEvent['contacts'] }) {
  if (contacts.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <ul className="space-y-0.5 text-xs">
      {contacts.map((c) => (
        <li key={`${c._id}-${c.argument}`}>
          <Link to={contactPath(c._id)} className="text-brand-700 hover:underline">
            {c.email ?? shortenAddress(c.wallet)}
          </Link>{' '}
          <span className="text-slate-600">({c.argument})</span>
        </li>
      ))}
    </ul>
  );
}

const columns = (format: ArgumentFormat): DataGridColumn<ContractEvent, SortField>[] => [
  { key: 'event', header: 'Event', render: (e) => <span className="font-medium">{e.event_name}</span> },
  {
    key: 'args',
    header: 'Arguments',
    render: (e) => <ArgumentsCell event={e} format={format} />,
    className: 'max-w-md',
  },
  {
    key: 'block',
    header: 'Block',
    sortField: 'block_number',
    render: (e) => formatBlock(e.block_number),
    className: 'tabular-nums',
  },
  { key: 'tx', header: 'Transaction', render: (e) => <TransactionCell event={e} /> },
  { key: 'time', header: 'Time', render: (e) => formatDateTime(e.block_time), className: 'whitespace-nowrap' },
  { key: 'contacts', header: 'Contacts', render: (e) => <ContactsCell contacts={e.contacts} /> },
];

/**
 * A contract's decoded events, newest first (token amounts in whole tokens: argumentFormat), with the spec's list behaviour; fetched again every
 * `pollMs` while the contract is moving (TanStack Query stops while the page is hidden).
 */
export function EventFeed({ contract, pollMs }: { contract: WatchedContractDetail; pollMs: number | false }) {
  const contractId = contract._id;
  const feedColumns = useMemo(() => columns(argumentFormat(contract)), [contract]);
  const list = useListQuery<SortField>({ defaultSort: { field: 'block_number', order: 'desc' } });
  const events = useQuery({
    queryKey: [...ONCHAIN_KEY, 'events', contractId, list.query],
    queryFn: () => fetchContractEvents(contractId, list.query),
    placeholderData: keepPreviousData,
    refetchInterval: pollMs,
  });
  return (
    <QueryGrid<ContractEvent, SortField>
      label="Events"
      list={list}
      page={events.data}
      error={events.error ? messageOf(events.error, 'The events could not be loaded.') : null}
      columns={feedColumns}
      rowKey={(e) => e._id}
      loading={events.isFetching && !events.data}
      empty="No events yet. Confirmed events of the watched kinds show here."
    />
  );
}
