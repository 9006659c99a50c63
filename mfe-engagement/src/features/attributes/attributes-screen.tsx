import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@console/shared/ui';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { useDialogSlot } from '@console/shared/overlays';
import { ATTRIBUTE_SORT_FIELDS, type CustomAttribute } from '@console/shared/contracts';
import { ATTRIBUTES_KEY, fetchAttributes } from './api';
import { ATTRIBUTE_TYPE_INFO } from './attribute-types';
import { CreateAttributeDialog } from './create-attribute-dialog';
import { DeleteAttributeDialog } from './delete-attribute-dialog';
import { formatDate } from '@console/shared/format';
import { RenameAttributeDialog } from './rename-attribute-dialog';

type SortField = (typeof ATTRIBUTE_SORT_FIELDS)[number];

type DialogRequest = { kind: 'create' } | { kind: 'rename' | 'delete'; attribute: CustomAttribute };

/** Custom attributes: the grid, and the create, rename and delete dialogs. */
export function AttributesScreen() {
  const list = useListQuery<SortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const attributes = useQuery({
    queryKey: [...ATTRIBUTES_KEY, 'list', list.query],
    queryFn: () => fetchAttributes(list.query),
    placeholderData: keepPreviousData,
  });
  const { dialog, open: show, close } = useDialogSlot<DialogRequest>();

  const columns: DataGridColumn<CustomAttribute, SortField>[] = [
    { key: 'name', header: 'Name', sortField: 'name', render: (a) => a.name, className: 'font-medium text-slate-900' },
    { key: 'key', header: 'Key', sortField: 'key', render: (a) => <code className="text-xs">{a.key}</code> },
    { key: 'type', header: 'Type', render: (a) => ATTRIBUTE_TYPE_INFO[a.type].label },
    { key: 'created', header: 'Created', sortField: 'created_at', render: (a) => formatDate(a.created_at) },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      render: (a) => (
        <span className="inline-flex gap-3">
          <Button variant="link" aria-label={`Rename ${a.name}`} onClick={() => show({ kind: 'rename', attribute: a })}>
            Rename
          </Button>
          <Button
            variant="link"
            className="text-red-700"
            aria-label={`Delete ${a.name}`}
            onClick={() => show({ kind: 'delete', attribute: a })}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ];

  return (
    <section>
      <PageHeader
        title="Custom Attributes"
        description="Extra fields your contacts carry, such as a token balance or a Discord handle. They show as grid columns, import targets and segment fields."
        actions={<Button onClick={() => show({ kind: 'create' })}>Create attribute</Button>}
      />
      <QueryGrid<CustomAttribute, SortField>
        label="Custom attributes"
        list={list}
        page={attributes.data}
        error={attributes.error?.message}
        search={{ label: 'Search attributes', placeholder: 'Search by name or key' }}
        columns={columns}
        rowKey={(a) => a._id}
        loading={attributes.isFetching}
        empty="No custom attributes yet."
      />
      {dialog.kind === 'create' && <CreateAttributeDialog key={dialog.seq} open={dialog.open} onClose={close} />}
      {dialog.kind === 'rename' && (
        <RenameAttributeDialog key={dialog.seq} attribute={dialog.attribute} open={dialog.open} onClose={close} />
      )}
      {dialog.kind === 'delete' && (
        <DeleteAttributeDialog key={dialog.seq} attribute={dialog.attribute} open={dialog.open} onClose={close} />
      )}
    </section>
  );
}
