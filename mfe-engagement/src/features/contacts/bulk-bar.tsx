import { useState } from 'react';
import { Button, SelectField } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import { SELECT_A_LIST_MESSAGE, type BulkAction, type List } from '@console/shared/contracts';
import { formatCount } from '@console/shared/format';
import { pluralContacts } from './contact-format';

export interface BulkBarProps {
  /** How many contacts the selection stands for. */
  count: number;
  lists: readonly List[];
  /** On a list's members grid: "Remove from list" takes them out of this list, no list to pick. */
  fixedListId?: string;
  /** Runs the action; resolves to a server error for the list field, or null. */
  onAction: (action: BulkAction, listId?: string) => Promise<string | null>;
  onClear: () => void;
}

/** What to do with the selected contacts: add to / remove from a list, unsubscribe, delete (confirmed). */
export function BulkBar({ count, lists, fixedListId, onAction, onClear }: BulkBarProps) {
  const [listId, setListId] = useState('');
  const [listError, setListError] = useState<string | null>(null);
  const [running, setRunning] = useState<BulkAction | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const run = async (action: BulkAction, target?: string) => {
    setRunning(action);
    try {
      setListError(await onAction(action, target));
    } finally {
      setRunning(null);
    }
  };

  const withList = (action: BulkAction) => {
    if (listId === '') {
      setListError(SELECT_A_LIST_MESSAGE);
      return;
    }
    void run(action, listId);
  };

  const busy = running !== null;
  const targets = fixedListId ? lists.filter((list) => list._id !== fixedListId) : lists;

  return (
    <section
      aria-label="Bulk actions"
      className="mb-3 flex flex-wrap items-start gap-3 rounded-control border border-slate-200 bg-slate-50 px-4 py-3"
    >
      <p className="self-center text-sm font-medium text-slate-900" aria-live="polite">
        {formatCount(count)} selected
      </p>
      <SelectField
        label="List for the selected contacts"
        hideLabel
        value={listId}
        error={listError}
        onChange={(event) => {
          setListId(event.target.value);
          setListError(null);
        }}
        containerClassName="min-w-48"
      >
        <option value="">Choose a list…</option>
        {targets.map((list) => (
          <option key={list._id} value={list._id}>
            {list.name}
          </option>
        ))}
      </SelectField>
      <Button
        variant="secondary"
        busy={running === 'add_to_list'}
        disabled={busy}
        onClick={() => withList('add_to_list')}
      >
        Add to list
      </Button>
      <Button
        variant="secondary"
        busy={running === 'remove_from_list'}
        disabled={busy}
        onClick={() => (fixedListId ? void run('remove_from_list', fixedListId) : withList('remove_from_list'))}
      >
        Remove from list
      </Button>
      <Button
        variant="secondary"
        busy={running === 'unsubscribe'}
        disabled={busy}
        onClick={() => void run('unsubscribe')}
      >
        Unsubscribe
      </Button>
      <Button variant="danger" disabled={busy} onClick={() => setConfirmDelete(true)}>
        Delete
      </Button>
      <Button variant="link" className="self-center" disabled={busy} onClick={onClear}>
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete ${pluralContacts(count)}?`}
        confirmVariant="danger"
        cancelText="Cancel"
        onConfirm={async () => {
          await run('delete');
          setConfirmDelete(false);
        }}
      >
        <p>
          {count === 1 ? 'This contact is' : `These ${formatCount(count)} contacts are`} removed from your audience and
          from every list. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
