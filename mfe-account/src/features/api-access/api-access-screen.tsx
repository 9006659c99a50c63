import { useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiKey, CreatedApiKey } from '@console/shared/contracts';
import { PageHeader } from '@console/shared/layout';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import { Button } from '@console/shared/ui';
import { ApiAccessTabs } from './api-access-tabs';
import { KEY_LIST_KEY, fetchKeys } from './api';
import { CreateKeyDialog } from './create-key-dialog';
import { keyColumns, type KeySortField } from './key-columns';
import { KeyEvents } from './key-events';
import { RevokeKeyDialog } from './revoke-key-dialog';
import { SecretDialog } from './secret-dialog';

/**
 * One dialog at a time; `seq` remounts it fresh for each opening. The new key's secret lives only in the
 * `secret` state: closing that dialog replaces the state, so the secret is dropped from memory.
 */
type DialogState =
  | { kind: 'none'; seq: number }
  | { kind: 'create'; open: boolean; seq: number }
  | { kind: 'secret'; created: CreatedApiKey; seq: number }
  | { kind: 'revoke'; apiKey: ApiKey; open: boolean; seq: number };

export const EMPTY_TEXT =
  'No API keys yet. Create one to call the API from your own back end: send e-mails, manage contacts and lists.';

/** API Access (account/api-access, api_access): the community's keys, creating and revoking them, and their activity. */
export function ApiAccessScreen() {
  const list = useListQuery<KeySortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const keys = useQuery({
    queryKey: [...KEY_LIST_KEY, list.query],
    queryFn: () => fetchKeys(list.query),
    placeholderData: keepPreviousData,
  });
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none', seq: 0 });
  const createButton = useRef<HTMLButtonElement>(null);

  const columns = useMemo(
    () =>
      keyColumns((apiKey) =>
        apiKey.status === 'active' ? (
          <Button
            variant="link"
            className="text-red-700"
            aria-label={`Revoke ${apiKey.name}`}
            onClick={() => setDialog((d) => ({ kind: 'revoke', apiKey, open: true, seq: d.seq + 1 }))}
          >
            Revoke
          </Button>
        ) : null,
      ),
    [],
  );

  const openCreate = () => setDialog((d) => ({ kind: 'create', open: true, seq: d.seq + 1 }));
  const close = () => setDialog((d) => (d.kind === 'create' || d.kind === 'revoke' ? { ...d, open: false } : d));
  const closeSecret = () => {
    setDialog((d) => ({ kind: 'none', seq: d.seq + 1 }));
    // Focus goes back to Create key once the dialog has gone (its opener, the create dialog, is gone too).
    setTimeout(() => createButton.current?.focus(), 0);
  };
  const noKeysYet = keys.data?.pagination.count === 0 && !list.state.searchString;

  return (
    <section>
      <PageHeader
        title="API Access"
        description="Keys for your own integrations: each has a name, a scope and an optional expiry."
        actions={
          <Button ref={createButton} onClick={openCreate}>
            Create key
          </Button>
        }
      />
      <ApiAccessTabs />
      {noKeysYet ? (
        <div className="rounded-panel border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="text-slate-600">{EMPTY_TEXT}</p>
          <Button className="mt-4" onClick={openCreate}>
            Create your first key
          </Button>
        </div>
      ) : (
        <QueryGrid<ApiKey, KeySortField>
          label="API keys"
          list={list}
          page={keys.data}
          error={keys.error?.message}
          search={{ label: 'Search keys', placeholder: 'Search by name or key' }}
          columns={columns}
          rowKey={(k) => k._id}
          loading={keys.isFetching}
          empty={list.state.searchString ? 'No keys match your search.' : 'No keys found.'}
        />
      )}
      <KeyEvents />
      {dialog.kind === 'create' && (
        <CreateKeyDialog
          key={dialog.seq}
          open={dialog.open}
          onClose={close}
          onCreated={(created) => setDialog((d) => ({ kind: 'secret', created, seq: d.seq + 1 }))}
        />
      )}
      {dialog.kind === 'secret' && <SecretDialog key={dialog.seq} created={dialog.created} onClose={closeSecret} />}
      {dialog.kind === 'revoke' && (
        <RevokeKeyDialog key={dialog.seq} apiKey={dialog.apiKey} open={dialog.open} onClose={close} />
      )}
    </section>
  );
}
