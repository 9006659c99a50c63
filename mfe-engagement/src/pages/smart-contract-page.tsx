import '../styles.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@console/shared/router';
import { PageHeader } from '@console/shared/layout';
import { messageOf } from '@console/shared/api';
import { Spinner } from '@console/shared/ui';
import { ONCHAIN_KEY, fetchContract } from '../features/smart-contracts/api';
import { ContractActions, ContractSummary, WatchedEventsForm } from '../features/smart-contracts/contract-detail';
import { EventFeed } from '../features/smart-contracts/event-feed';
import { SMART_CONTRACTS_PATH } from '../features/smart-contracts/paths';
import { FEED_POLL_MS, feedPolls } from '../features/smart-contracts/watch-rules';

/**
 * A watched contract (engagement/smart-contracts/detail; permission monitor_smart_contracts): its state and
 * progress, the watched events, pause and stop, and its feed of decoded events. While the watcher moves
 * (live or catching up), the page is fetched again every FEED_POLL_MS while it is visible.
 */
export default function SmartContractPage() {
  const { id = '' } = useParams();
  const contract = useQuery({
    queryKey: [...ONCHAIN_KEY, 'contract', id],
    queryFn: () => fetchContract(id),
    refetchInterval: (query) => (query.state.data && feedPolls(query.state.data.state) ? FEED_POLL_MS : false),
  });
  const back = (
    <Link to={SMART_CONTRACTS_PATH} className="text-sm text-brand-700 underline">
      Back to smart contracts
    </Link>
  );
  if (contract.isPending)
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the contract" />
      </div>
    );
  if (contract.isError)
    return (
      <section>
        <PageHeader title="Smart contract" actions={back} />
        <p role="alert" className="text-sm text-red-700">
          {messageOf(contract.error, 'The contract could not be loaded.')}
        </p>
      </section>
    );
  const c = contract.data;
  const poll = feedPolls(c.state) ? FEED_POLL_MS : false;
  return (
    <section className="space-y-6">
      <PageHeader title={c.name} description={back} actions={<ContractActions contract={c} />} />
      <ContractSummary contract={c} />
      <WatchedEventsForm key={c.events.join('|')} contract={c} />
      <h2 className="text-lg font-semibold text-slate-900">Events</h2>
      <EventFeed contract={c} pollMs={poll} />
    </section>
  );
}
