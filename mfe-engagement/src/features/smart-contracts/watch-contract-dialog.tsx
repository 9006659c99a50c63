import { useId, useReducer, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, messageOf, splitFormErrors } from '@console/shared/api';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { consoleStore } from '@console/shared/session';
import { Button, SelectField, TextArea, TextField, notify } from '@console/shared/ui';
import { ONCHAIN_LIMITS, type Chain } from '@console/shared/contracts';
import { ONCHAIN_KEY, fetchChains, watchContract } from './api';
import { EventPicker } from './event-picker';
import {
  EMPTY_ABI_PICKER,
  WATCH_FIELDS,
  abiPickerReducer,
  formatBlock,
  toWatchInput,
  type AbiPickerAction,
  type AbiPickerState,
  type WatchErrors,
} from './watch-rules';

/** The pasted ABI, checked as it is typed, and the events picked from it. */
export function AbiPicker({
  state,
  dispatch,
  abiError,
  eventsError,
}: {
  state: AbiPickerState;
  dispatch: (action: AbiPickerAction) => void;
  /** A problem found on submit (the text's own problem shows as it is typed). */
  abiError?: string | null;
  eventsError?: string | null;
}) {
  const problem = state.problem ?? abiError ?? null;
  return (
    <>
      <TextArea
        label="ABI"
        value={state.abi}
        maxLength={ONCHAIN_LIMITS.abi}
        rows={6}
        spellCheck={false}
        className="font-mono text-xs"
        hint="Paste the contract's ABI as JSON, as the compiler or the block explorer exports it."
        error={problem}
        onChange={(event) => dispatch({ type: 'abi', abi: event.target.value })}
      />
      {state.events.length > 0 && (
        <EventPicker
          events={state.events}
          picked={state.picked}
          onToggle={(signature, on) => dispatch({ type: 'toggle', signature, on })}
          error={eventsError}
        />
      )}
    </>
  );
}

function chainHint(chain: Chain | undefined): string {
  if (!chain) return '';
  return chain.head_block === null
    ? "The chain's RPC did not answer: the contract will be read once it does."
    : `Its head is block ${formatBlock(chain.head_block)}.`;
}

type Failure = { message: string; upgrade: boolean } | null;

/**
 * Watch a contract: chain, address, name, ABI with its events, start block and confirmations. Checked with
 * the contract's rules before it is sent; the gateway's field errors show under their fields. Mount anew
 * per opening.
 */
export function WatchContractDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const formId = useId();
  const chains = useQuery({ queryKey: [...ONCHAIN_KEY, 'chains'], queryFn: fetchChains, enabled: open });
  const [chainId, setChainId] = useState<number | null>(null);
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [abi, dispatch] = useReducer(abiPickerReducer, EMPTY_ABI_PICKER);
  const [startBlock, setStartBlock] = useState('');
  const [confirmations, setConfirmations] = useState('1');
  const [errors, setErrors] = useState<WatchErrors>({});
  const [failure, setFailure] = useState<Failure>(null);

  const records = chains.data?.records ?? [];
  const chosenChainId = chainId ?? records[0]?.id ?? null;
  const chosen = records.find((c) => c.id === chosenChainId);

  const watch = useMutation({
    mutationFn: watchContract,
    onSuccess: async (contract) => {
      notify.success(`Watching "${contract.name}".`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ONCHAIN_KEY });
    },
    onError: (error) => {
      const split = splitFormErrors(error, WATCH_FIELDS, 'The contract could not be watched. Please try again.');
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 409) {
        setErrors({ ...split.fields, address: messageOf(error, split.message ?? '') });
        return;
      }
      setErrors(split.fields);
      setFailure(split.message === null ? null : { message: split.message, upgrade: status === 403 });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = toWatchInput({ chainId: chosenChainId, address, name, abi, startBlock, confirmations });
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    watch.mutate(checked.input);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Watch a contract"
      dismissible={!watch.isPending}
      size="lg"
      testId="watch-contract-dialog"
      footer={<FormFooter formId={formId} busy={watch.isPending} submitLabel="Watch contract" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        {failure && (
          <div role="alert" className="rounded-control bg-red-50 p-3 text-sm text-red-800">
            <p>{failure.message}</p>
            {failure.upgrade && (
              <Button
                className="mt-2"
                size="sm"
                onClick={() => {
                  onClose();
                  consoleStore.getState().openUpgrade('monitor_smart_contracts');
                }}
              >
                Upgrade your plan
              </Button>
            )}
          </div>
        )}
        {chains.isError && (
          <p role="alert" className="text-sm text-red-700">
            {messageOf(chains.error, 'The chains could not be loaded.')}
          </p>
        )}
        <SelectField
          label="Chain"
          value={chosenChainId ?? ''}
          error={errors.chain_id}
          onChange={(event) => setChainId(Number(event.target.value))}
          disabled={records.length === 0}
        >
          {records.length === 0 && <option value="">{chains.isPending ? 'Loading chains…' : 'No chain'}</option>}
          {records.map((chain) => (
            <option key={chain.id} value={chain.id}>
              {chain.name} ({chain.id})
            </option>
          ))}
        </SelectField>
        {chosen && <p className="-mt-3 text-xs text-slate-600">{chainHint(chosen)}</p>}
        <TextField
          label="Contract address"
          value={address}
          maxLength={42}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          error={errors.address}
          onChange={(event) => setAddress(event.target.value)}
        />
        <TextField
          label="Name"
          value={name}
          maxLength={ONCHAIN_LIMITS.name}
          autoComplete="off"
          hint="How the contract is shown in the console."
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <AbiPicker state={abi} dispatch={dispatch} abiError={errors.abi} eventsError={errors.events} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Start block"
            value={startBlock}
            maxLength={20}
            inputMode="numeric"
            autoComplete="off"
            hint="Leave empty to start at the chain's head. To count every holder of a token, start at the block it was deployed in."
            error={errors.start_block}
            onChange={(event) => setStartBlock(event.target.value)}
          />
          <TextField
            label="Confirmations"
            value={confirmations}
            maxLength={4}
            inputMode="numeric"
            autoComplete="off"
            hint="Blocks to wait before an event counts (reorg safety)."
            error={errors.confirmations}
            onChange={(event) => setConfirmations(event.target.value)}
          />
        </div>
      </form>
    </Dialog>
  );
}
