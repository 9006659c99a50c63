import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@console/shared/router';
import { ConfirmDialog } from '@console/shared/overlays';
import { messageOf } from '@console/shared/api';
import { Button, notify } from '@console/shared/ui';
import { ONCHAIN_MESSAGES, type WatchedContractDetail } from '@console/shared/contracts';
import { ONCHAIN_KEY, patchContract, stopWatching } from './api';
import { CopyAddress } from './copy-address';
import { EventPicker } from './event-picker';
import { SMART_CONTRACTS_PATH } from './paths';
import { WatchStateCell } from './state-badge';
import { blockProgress, formatBlock } from './watch-rules';

/** The contract's facts: chain, address, state, progress, confirmations, token. */
export function ContractSummary({ contract }: { contract: WatchedContractDetail }) {
  const rows: [string, React.ReactNode][] = [
    ['Chain', `${contract.chain_name} (${contract.chain_id})`],
    ['Address', <CopyAddress key="address" address={contract.address} />],
    ['State', <WatchStateCell key="state" state={contract.state} lastError={contract.last_error} />],
    [
      'Last block processed',
      <span key="block" data-testid="block-progress">
        {blockProgress(contract.last_block, contract.head_block)}
      </span>,
    ],
    ['Start block', formatBlock(contract.start_block)],
    ['Confirmations', String(contract.confirmations)],
  ];
  if (contract.token)
    rows.push(['Token', `${contract.token.symbol ?? 'Balances kept'} (${contract.token.decimals} decimals)`]);
  return (
    <dl className="grid gap-x-6 gap-y-3 rounded-panel border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs font-medium text-slate-600">{label}</dt>
          <dd className="mt-0.5 text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Change the watched events among the ABI's; saved with a toast. */
export function WatchedEventsForm({ contract }: { contract: WatchedContractDetail }) {
  const client = useQueryClient();
  const [picked, setPicked] = useState<string[]>(contract.events);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const changed =
    picked.length !== contract.events.length || picked.some((signature) => !contract.events.includes(signature));
  const save = async () => {
    if (picked.length === 0) {
      setError(ONCHAIN_MESSAGES.events);
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await patchContract(contract._id, {
        events: contract.abi_events.map((e) => e.signature).filter((s) => picked.includes(s)),
      });
      notify.success('Watched events saved.');
      await client.invalidateQueries({ queryKey: ONCHAIN_KEY });
    } catch (failure) {
      setError(messageOf(failure, 'The events could not be saved.'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      aria-label="Watched events"
      className="space-y-3 rounded-panel border border-slate-200 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <EventPicker
        legend="Watched events"
        events={contract.abi_events}
        picked={picked}
        error={error}
        disabled={saving}
        onToggle={(signature, on) =>
          setPicked((current) =>
            on ? [...current.filter((s) => s !== signature), signature] : current.filter((s) => s !== signature),
          )
        }
      />
      <Button type="submit" busy={saving} disabled={!changed}>
        Save events
      </Button>
    </form>
  );
}

/** Pause or resume the watcher, and stop watching (after a confirmation). */
export function ContractActions({ contract }: { contract: WatchedContractDetail }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [toggling, setToggling] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const paused = contract.state === 'paused';
  const toggle = async () => {
    setToggling(true);
    try {
      await patchContract(contract._id, { paused: !paused });
      notify.success(paused ? 'Watching resumed.' : 'Watching paused.');
      await client.invalidateQueries({ queryKey: ONCHAIN_KEY });
    } catch (error) {
      notify.error(messageOf(error, 'The contract could not be changed.'));
    } finally {
      setToggling(false);
    }
  };
  const stop = async () => {
    await stopWatching(contract._id);
    setConfirming(false);
    notify.success(ONCHAIN_MESSAGES.deleted);
    client.removeQueries({ queryKey: [...ONCHAIN_KEY, 'contract', contract._id] });
    void client.invalidateQueries({ queryKey: ONCHAIN_KEY });
    void navigate(SMART_CONTRACTS_PATH);
  };
  return (
    <>
      <Button variant="secondary" busy={toggling} onClick={() => void toggle()}>
        {paused ? 'Resume' : 'Pause'}
      </Button>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Stop watching
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Stop watching "${contract.name}"?`}
        confirmVariant="danger"
        cancelText="Cancel"
        onConfirm={stop}
        onError={(error) => notify.error(messageOf(error, 'The contract could not be removed.'))}
      >
        <p>
          Its events leave the feed, and segments stop counting what it saw. Watch it again to read its events from a
          start block.
        </p>
      </ConfirmDialog>
    </>
  );
}
