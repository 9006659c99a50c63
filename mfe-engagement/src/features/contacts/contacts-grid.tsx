import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, notify } from '@console/shared/ui';
import { QueryGrid, useListQuery, useUrlFilterBinding, useUrlFilters } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import type { BulkAction, Contact, ContactSortField, CustomAttribute, List } from '@console/shared/contracts';
import { contactKeys, fetchContacts, useAllAttributes, useAllLists } from './api';
import { BulkBar } from './bulk-bar';
import { contactColumns } from './contact-columns';
import { filterKey, filtersFromSearchParams, hasFilters, toContactFilter, URL_FILTER_KEYS } from './contact-filter';
import { contactLabel } from './contact-format';
import { offersSelectAll, selectedCount, toContactSelection } from './contact-selection';
import { ContactSlideOver } from './contact-slide-over';
import { ContactsToolbar } from './contacts-toolbar';
import { useVisibleColumns } from './column-visibility';
import { ExportButton } from './export-button';
import { SegmentChip } from './segment-chip';
import { SelectionBanner } from './selection-banner';
import { useBulkActions } from './use-bulk-actions';
import { useContactSelection } from './use-contact-selection';
import { useLinkedContact } from './use-linked-contact';

export interface ContactsGridProps {
  /** The page heading. */
  title: string;
  description?: ReactNode;
  /** Header actions before Export CSV and Add contact. */
  actions?: ReactNode;
  /** A list's members: the list is fixed (no list filter) and "Remove from list" takes contacts out of it. */
  listId?: string;
  /** Take ?listId=, ?segmentId=, ?status= from the URL (the Contacts screen). */
  urlFilters?: boolean;
}

const NO_CONTACTS: readonly Contact[] = [];
const NO_LISTS: readonly List[] = [];
const NO_ATTRIBUTES: readonly CustomAttribute[] = [];
const DEFAULT_SORT = { field: 'created_at', order: 'desc' } as const;

interface EditorState {
  open: boolean;
  contact: Contact | null;
  /** A new key per opening: a fresh form each time. */
  key: number;
}

const rowLabel = (row: Contact) => `Select ${contactLabel(row)}`;

/**
 * The contacts grid with its header, filters, selection, bulk actions, export and add/edit
 * slide-over: the Contacts screen, and a list's members (with `listId`). List behaviour (paging,
 * sort, page size, debounced search) is the shared useListQuery.
 */
export function ContactsGrid({ title, description, actions, listId, urlFilters = false }: ContactsGridProps) {
  // Link-in filters (?listId=, ?segmentId=, ?status=): a URL without them is never touched, since each
  // navigation re-runs the shell's route guard.
  const url = useUrlFilters({
    keys: URL_FILTER_KEYS,
    parse: filtersFromSearchParams,
    enabled: urlFilters,
    write: 'carried',
  });
  const list = useListQuery<ContactSortField>({ defaultSort: DEFAULT_SORT, initialFilters: url.initialFilters });
  const { setFilter, clearFilters } = useUrlFilterBinding(url, list);

  const query = useMemo(() => (listId ? { ...list.query, listId } : list.query), [list.query, listId]);
  const contacts = useQuery({
    queryKey: contactKeys.page(query),
    queryFn: () => fetchContacts(query),
    placeholderData: keepPreviousData,
  });
  const allLists = useAllLists();
  const allAttributes = useAllAttributes();
  const lists = allLists.data ?? NO_LISTS;
  const attributes = allAttributes.data?.records ?? NO_ATTRIBUTES;

  const { searchString, filters } = list.state;
  const filter = useMemo(() => toContactFilter(searchString, filters, listId), [searchString, filters, listId]);
  const records = contacts.data?.records ?? NO_CONTACTS;
  const total = contacts.data?.pagination.count ?? 0;
  const pageIds = useMemo(() => records.map((row) => row._id), [records]);
  const selection = useContactSelection(filterKey(filter), pageIds);
  const runBulk = useBulkActions(listId, selection.clear);

  const [visibleKeys, toggleColumn] = useVisibleColumns();
  const [editor, setEditor] = useState<EditorState>({ open: false, contact: null, key: 0 });
  const openEditor = useCallback(
    (contact: Contact | null) => setEditor((current) => ({ open: true, contact, key: current.key + 1 })),
    [],
  );
  useLinkedContact(urlFilters, openEditor);
  const closeEditor = useCallback(() => setEditor((current) => ({ ...current, open: false })), []);
  const copyWallet = useCallback((wallet: string) => {
    navigator.clipboard.writeText(wallet).then(
      () => notify.success('Wallet address copied.'),
      () => notify.error('The address could not be copied.'),
    );
  }, []);

  const listNames = useMemo(() => new Map(lists.map((item) => [item._id, item.name])), [lists]);
  const visibleAttributes = useMemo(
    () => attributes.filter((attribute) => visibleKeys.has(attribute.key)),
    [attributes, visibleKeys],
  );
  const columns = useMemo(
    () =>
      contactColumns({ attributes: visibleAttributes, lists: listNames, onEdit: openEditor, onCopyWallet: copyWallet }),
    [visibleAttributes, listNames, openEditor, copyWallet],
  );
  const gridSelection = useMemo(
    () => ({
      selected: selection.checked,
      onToggle: selection.onToggle,
      onToggleAll: selection.onToggleAll,
      rowLabel,
      allLabel: 'Select all contacts on this page',
    }),
    [selection.checked, selection.onToggle, selection.onToggleAll],
  );

  const count = selectedCount(selection.selection, total);
  const onBulk = (action: BulkAction, target?: string) => {
    const body = toContactSelection(selection.selection, filter);
    return body ? runBulk(action, body, target) : Promise.resolve(null);
  };

  return (
    <section>
      <PageHeader
        title={title}
        description={description}
        actions={
          <>
            {actions}
            <ExportButton filter={filter} />
            <Button onClick={() => openEditor(null)}>Add contact</Button>
          </>
        }
      />
      <ContactsToolbar
        searchInput={list.searchInput}
        onSearchInput={list.setSearchInput}
        filters={filters}
        onFilter={setFilter}
        onClearFilters={clearFilters}
        canClear={hasFilters(filters)}
        lists={lists}
        showListFilter={listId === undefined}
        attributes={attributes}
        visibleColumns={visibleKeys}
        onToggleColumn={toggleColumn}
      />
      {filters.segmentId && <SegmentChip segmentId={filters.segmentId} onRemove={() => setFilter('segmentId', '')} />}
      {count > 0 && (
        <BulkBar count={count} lists={lists} fixedListId={listId} onAction={onBulk} onClear={selection.clear} />
      )}
      {(selection.selection.kind === 'filter' || offersSelectAll(selection.selection, pageIds, total)) && (
        <SelectionBanner
          mode={selection.selection.kind === 'filter' ? 'all' : 'page'}
          pageCount={pageIds.length}
          total={total}
          onSelectAll={selection.selectAllMatching}
          onClear={selection.clear}
        />
      )}
      <QueryGrid<Contact, ContactSortField>
        label={title}
        list={list}
        page={contacts.data}
        error={contacts.error?.message}
        columns={columns}
        rowKey={(row) => row._id}
        empty="No contacts found."
        loading={contacts.isFetching}
        selection={gridSelection}
      />
      <ContactSlideOver
        key={editor.key}
        open={editor.open}
        onClose={closeEditor}
        contact={editor.contact}
        defaultLists={listId ? [listId] : []}
        lists={lists}
        attributes={attributes}
      />
    </section>
  );
}
