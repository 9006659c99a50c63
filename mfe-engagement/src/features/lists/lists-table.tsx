import { useCallback, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@console/shared/ui';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import type { List } from '@console/shared/contracts';
import { fetchLists } from './api';
import { DeleteListDialog } from './delete-list-dialog';
import { listColumns, type ListSortField } from './list-columns';
import { ListFormDialog } from './list-form-dialog';

const DEFAULT_SORT = { field: 'created_at', order: 'desc' } as const;

interface EditorState {
  open: boolean;
  list: List | null;
  key: number;
}

/** The Lists screen: search, sortable grid, paging, create / edit dialog and delete confirmation. */
export function ListsTable() {
  const query = useListQuery<ListSortField>({ defaultSort: DEFAULT_SORT });
  const lists = useQuery({
    queryKey: ['lists', query.query],
    queryFn: () => fetchLists(query.query),
    placeholderData: keepPreviousData,
  });
  const [editor, setEditor] = useState<EditorState>({ open: false, list: null, key: 0 });
  const [deleting, setDeleting] = useState<List | null>(null);

  const openEditor = useCallback(
    (list: List | null) => setEditor((current) => ({ open: true, list, key: current.key + 1 })),
    [],
  );
  const columns = useMemo(() => listColumns({ onEdit: openEditor, onDelete: setDeleting }), [openEditor]);

  return (
    <section>
      <PageHeader
        title="Lists"
        description="Group contacts into lists for widgets and sends."
        actions={<Button onClick={() => openEditor(null)}>Create list</Button>}
      />
      <QueryGrid<List, ListSortField>
        label="Lists"
        list={query}
        search={{ label: 'Search lists', placeholder: 'List name' }}
        page={lists.data}
        error={lists.error?.message}
        columns={columns}
        rowKey={(row) => row._id}
        empty="No lists found."
        loading={lists.isFetching}
      />
      <ListFormDialog
        key={editor.key}
        open={editor.open}
        list={editor.list}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
      />
      <DeleteListDialog list={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
