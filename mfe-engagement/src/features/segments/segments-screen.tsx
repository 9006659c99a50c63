import { useMemo, useState } from 'react';
import { Link } from '@console/shared/router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Spinner } from '@console/shared/ui';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { SEGMENT_SORT_FIELDS, segmentFields, type Segment } from '@console/shared/contracts';
import { SEGMENTS_KEY, allListsQuery, fetchSegments, segmentFieldsQuery } from './api';
import { DeleteSegmentDialog } from './delete-segment-dialog';
import { formatDate } from '@console/shared/format';
import { SegmentEditor, contactsOfSegment } from './segment-editor';

type SortField = (typeof SEGMENT_SORT_FIELDS)[number];

type EditorState = { kind: 'closed' } | { kind: 'open'; segment: Segment | null; seq: number };
type DeleteState = { segment: Segment; open: boolean; seq: number } | null;

/** Saved segments, and the editor with its rule builder and live count. */
export function SegmentsScreen() {
  const list = useListQuery<SortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const segments = useQuery({
    queryKey: [...SEGMENTS_KEY, 'list', list.query],
    queryFn: () => fetchSegments(list.query),
    placeholderData: keepPreviousData,
  });
  // Should the fields fail to load, segments use the contact fields.
  const allowed = useQuery(segmentFieldsQuery());
  const lists = useQuery(allListsQuery());
  const fields = useMemo(() => allowed.data?.records ?? segmentFields([]), [allowed.data]);
  const [editor, setEditor] = useState<EditorState>({ kind: 'closed' });
  const [deleting, setDeleting] = useState<DeleteState>(null);
  const [seq, setSeq] = useState(0);

  const openEditor = (segment: Segment | null) => {
    setSeq(seq + 1);
    setEditor({ kind: 'open', segment, seq: seq + 1 });
  };
  const askDelete = (segment: Segment) => {
    setSeq(seq + 1);
    setDeleting({ segment, open: true, seq: seq + 1 });
  };

  const columns: DataGridColumn<Segment, SortField>[] = [
    {
      key: 'name',
      header: 'Name',
      sortField: 'name',
      render: (s) => (
        <Button variant="link" className="font-medium" onClick={() => openEditor(s)} aria-label={`Edit ${s.name}`}>
          {s.name}
        </Button>
      ),
    },
    { key: 'description', header: 'Description', render: (s) => s.description, className: 'max-w-md truncate' },
    { key: 'updated', header: 'Updated', sortField: 'updated_at', render: (s) => formatDate(s.updated_at) },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      render: (s) => (
        <span className="inline-flex items-center gap-3">
          <Link
            to={contactsOfSegment(s._id)}
            aria-label={`View contacts of ${s.name}`}
            className="text-sm text-brand-700 hover:underline"
          >
            View contacts
          </Link>
          <Button variant="link" className="text-red-700" aria-label={`Delete ${s.name}`} onClick={() => askDelete(s)}>
            Delete
          </Button>
        </span>
      ),
    },
  ];

  const ready = !allowed.isPending && !lists.isPending;
  return (
    <section>
      <PageHeader
        title="Segments"
        description="Target contacts by rules over their fields, lists, custom attributes and what your watched smart contracts saw of their wallets. The count updates as you edit."
        actions={
          editor.kind === 'closed' ? <Button onClick={() => openEditor(null)}>Create segment</Button> : undefined
        }
      />
      {editor.kind === 'open' ? (
        ready ? (
          <SegmentEditor
            key={editor.seq}
            segment={editor.segment}
            fields={fields}
            lists={lists.data?.records ?? []}
            onClose={() => setEditor({ kind: 'closed' })}
            onSaved={(saved) => setEditor({ ...editor, segment: saved })}
            onDelete={askDelete}
          />
        ) : (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="h-4 w-4" decorative />
            Loading fields and lists…
          </p>
        )
      ) : (
        <QueryGrid<Segment, SortField>
          label="Segments"
          list={list}
          page={segments.data}
          error={segments.error?.message}
          search={{ label: 'Search segments', placeholder: 'Search by name' }}
          columns={columns}
          rowKey={(s) => s._id}
          loading={segments.isFetching}
          empty="No segments yet."
        />
      )}
      {deleting && (
        <DeleteSegmentDialog
          key={deleting.seq}
          segment={deleting.segment}
          open={deleting.open}
          onClose={() => setDeleting({ ...deleting, open: false })}
          onDeleted={(gone) => {
            if (editor.kind === 'open' && editor.segment?._id === gone._id) setEditor({ kind: 'closed' });
          }}
        />
      )}
    </section>
  );
}
