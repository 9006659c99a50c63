import { useState } from 'react';
import { Link } from '@console/shared/router';
import { Button } from '@console/shared/ui';
import type { List } from '@console/shared/contracts';
import { AddContactsDialog } from './add-contacts-dialog';
import { ListBadges } from './list-badges';
import { formatMembers } from './list-columns';
import { ListFormDialog } from './list-form-dialog';

/** Under a list's heading: member count, badges and description. */
export function ListSummary({ list }: { list: List }) {
  return (
    <span className="flex flex-col gap-1">
      <span className="flex flex-wrap items-center gap-2">
        <span>
          {formatMembers(list.member_count)} {list.member_count === 1 ? 'member' : 'members'}
        </span>
        <ListBadges list={list} />
      </span>
      {list.description && <span>{list.description}</span>}
    </span>
  );
}

/** The list's own actions: Edit (name, description) and Add contacts. */
export function ListActions({ list }: { list: List }) {
  const [editing, setEditing] = useState({ open: false, key: 0 });
  const [adding, setAdding] = useState({ open: false, key: 0 });
  return (
    <>
      <Button variant="secondary" onClick={() => setEditing((s) => ({ open: true, key: s.key + 1 }))}>
        Edit
      </Button>
      <Button variant="secondary" onClick={() => setAdding((s) => ({ open: true, key: s.key + 1 }))}>
        Add contacts
      </Button>
      <ListFormDialog
        key={`edit-${editing.key}`}
        open={editing.open}
        list={list}
        onClose={() => setEditing((s) => ({ ...s, open: false }))}
      />
      <AddContactsDialog
        key={`add-${adding.key}`}
        open={adding.open}
        list={list}
        onClose={() => setAdding((s) => ({ ...s, open: false }))}
      />
    </>
  );
}

export function BackToLists() {
  return (
    <Link to="/engagement/lists" className="mb-3 inline-block text-sm font-medium text-brand-700 hover:underline">
      ← Lists
    </Link>
  );
}

/** GET /v1/lists/{id} answered 404. */
export function ListNotFound() {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-sm">
      <h1 className="text-lg font-semibold text-slate-900">This list does not exist.</h1>
      <p className="mt-2 text-slate-600">It may have been deleted, or the link is wrong.</p>
      <Link to="/engagement/lists" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
        Back to lists
      </Link>
    </section>
  );
}
