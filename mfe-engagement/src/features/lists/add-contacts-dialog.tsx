import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { Button, TextField, notify } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { ListPagination, useListQuery } from '@console/shared/lists';
import type { Contact, List } from '@console/shared/contracts';
import { addContactsToList, invalidateLists, searchContacts } from './api';

const PAGE_SIZES = [10, 25, 50] as const;

function label(contact: Contact): string {
  const name = `${contact.first_name} ${contact.last_name}`.trim();
  const id = contact.email || contact.wallet || contact._id;
  return name ? `${id} (${name})` : id;
}

/**
 * "Add contacts": search the audience (the shared list behaviour: debounced search, paging), tick
 * contacts, PATCH /v1/lists/{id}/contacts {contacts}. Members already in the list show ticked and
 * disabled. Mount with a key per opening.
 */
export function AddContactsDialog({ open, onClose, list }: { open: boolean; onClose: () => void; list: List }) {
  const client = useQueryClient();
  const query = useListQuery<'created_at'>({ defaultSort: { field: 'created_at', order: 'desc' }, storage: null });
  const results = useQuery({
    queryKey: ['contacts', query.query],
    queryFn: () => searchContacts(query.query),
    placeholderData: keepPreviousData,
    enabled: open,
  });
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = (id: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const add = async () => {
    if (picked.size === 0 || saving) return;
    setSaving(true);
    setError(null);
    try {
      const result = await addContactsToList(list._id, [...picked]);
      notify.success(result.message);
      onClose();
      await invalidateLists(client);
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.body.message ? caught.body.message : 'The contacts could not be added.',
      );
    } finally {
      setSaving(false);
    }
  };

  const records = results.data?.records ?? [];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Add contacts to ${list.name}`}
      size="lg"
      dismissible={!saving}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button busy={saving} disabled={picked.size === 0} onClick={() => void add()}>
            {picked.size === 1 ? 'Add 1 contact' : `Add ${picked.size} contacts`}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {error && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <TextField
          type="search"
          label="Search contacts"
          placeholder="Start of an e-mail, wallet or name"
          maxLength={200}
          value={query.searchInput}
          onChange={(event) => query.setSearchInput(event.target.value)}
        />
        <fieldset aria-busy={results.isFetching || undefined}>
          <legend className="sr-only">Contacts</legend>
          {results.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {results.error.message}
            </p>
          ) : records.length === 0 ? (
            <p className="py-4 text-center text-sm text-slate-500">
              {results.isPending ? 'Loading contacts…' : 'No contacts found.'}
            </p>
          ) : (
            <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto rounded-control ring-1 ring-slate-200 ring-inset">
              {records.map((contact) => {
                const member = contact.lists.includes(list._id);
                return (
                  <li key={contact._id}>
                    <label className="flex items-center gap-3 px-3 py-2 text-sm text-slate-700">
                      <input
                        type="checkbox"
                        checked={member || picked.has(contact._id)}
                        disabled={member}
                        onChange={() => toggle(contact._id)}
                        className="h-4 w-4 accent-brand-600"
                      />
                      <span className="min-w-0 flex-1 truncate">{label(contact)}</span>
                      {member && <span className="text-xs text-slate-500">Already in this list</span>}
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </fieldset>
        {results.data && (
          <ListPagination
            pagination={results.data.pagination}
            onPage={query.setPage}
            perPage={query.state.perPage}
            onPerPage={query.setPerPage}
            pageSizes={PAGE_SIZES}
            disabled={query.changingPage}
          />
        )}
      </div>
    </Dialog>
  );
}
