import { useState } from 'react';
import { Link } from '@console/shared/router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, notify } from '@console/shared/ui';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { useDialogSlot } from '@console/shared/overlays';
import { messageOf } from '@console/shared/api';
import { formatDate, formatRelative } from '@console/shared/format';
import { TEMPLATE_SORT_FIELDS, type TemplateSummary } from '@console/shared/contracts';
import { TEMPLATES_KEY, duplicateTemplate, fetchTemplates, invalidateTemplates } from './api';
import { TemplateThumbnail } from './template-thumbnail';
import { CreateTemplateDialog } from './create-template-dialog';
import { RenameTemplateDialog } from './rename-template-dialog';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { KIND_LABELS, usageText } from './template-rules';
import { designerHref } from './designer/designer-return';
import { GalleryToggle, useManagesGallery } from './gallery-toggle';

type SortField = (typeof TEMPLATE_SORT_FIELDS)[number];

type DialogRequest = { kind: 'create' } | { kind: 'rename' | 'delete'; template: TemplateSummary };

/**
 * The templates grid (search, sorts, pages) with create, duplicate, rename and delete; for super admins
 * (the platform's templates) also whether each is in every community's starter gallery.
 */
export function TemplatesScreen() {
  const client = useQueryClient();
  const list = useListQuery<SortField>({ defaultSort: { field: 'updated_at', order: 'desc' } });
  const templates = useQuery({
    queryKey: [...TEMPLATES_KEY, 'list', list.query],
    queryFn: () => fetchTemplates(list.query),
    placeholderData: keepPreviousData,
  });
  const { dialog, open, close } = useDialogSlot<DialogRequest>();
  const [duplicating, setDuplicating] = useState<string | null>(null);
  const managesGallery = useManagesGallery();

  const duplicate = async (template: TemplateSummary) => {
    setDuplicating(template._id);
    try {
      const copy = await duplicateTemplate(template._id);
      await invalidateTemplates(client);
      notify.success(`"${copy.name}" created.`);
    } catch (error) {
      notify.error(messageOf(error, 'The template could not be duplicated.'));
    } finally {
      setDuplicating(null);
    }
  };

  const columns: DataGridColumn<TemplateSummary, SortField>[] = [
    {
      key: 'thumbnail',
      header: <span className="sr-only">Thumbnail</span>,
      render: (t) => <TemplateThumbnail id={t._id} version={t.version} />,
      className: 'w-36',
    },
    {
      key: 'name',
      header: 'Name',
      sortField: 'name',
      render: (t) => (
        <div className="min-w-0">
          <Link to={designerHref(t._id)} className="font-medium text-brand-700 hover:underline">
            {t.name}
          </Link>
          {t.subject && <p className="max-w-xs truncate text-xs text-slate-600">{t.subject}</p>}
        </div>
      ),
    },
    { key: 'kind', header: 'Kind', render: (t) => KIND_LABELS[t.kind] },
    {
      key: 'updated',
      header: 'Last edited',
      sortField: 'updated_at',
      render: (t) => (
        <span title={formatDate(t.updated_at)}>
          {formatRelative(t.updated_at)}
          {t.updated_by && <span className="block text-xs text-slate-600">by {t.updated_by.name}</span>}
        </span>
      ),
    },
    { key: 'created', header: 'Created', sortField: 'created_at', render: (t) => formatDate(t.created_at) },
    { key: 'used', header: 'Used by', render: (t) => usageText(t.used_by) },
    ...(managesGallery
      ? [{ key: 'gallery', header: 'Starter gallery', render: (t: TemplateSummary) => <GalleryToggle template={t} /> }]
      : []),
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      render: (t) => (
        <span className="inline-flex items-center gap-3">
          <Button variant="link" aria-label={`Rename ${t.name}`} onClick={() => open({ kind: 'rename', template: t })}>
            Rename
          </Button>
          <Button
            variant="link"
            aria-label={`Duplicate ${t.name}`}
            busy={duplicating === t._id}
            onClick={() => void duplicate(t)}
          >
            Duplicate
          </Button>
          <Button
            variant="link"
            className="text-red-700"
            aria-label={`Delete ${t.name}`}
            onClick={() => open({ kind: 'delete', template: t })}
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
        title="Templates"
        description="Reusable e-mail designs with merge tags. Every change is saved as you design, with the last 20 versions kept."
        actions={<Button onClick={() => open({ kind: 'create' })}>Create template</Button>}
      />
      <QueryGrid<TemplateSummary, SortField>
        label="Templates"
        list={list}
        page={templates.data}
        error={templates.error?.message}
        search={{ label: 'Search templates', placeholder: 'Search by name' }}
        columns={columns}
        rowKey={(t) => t._id}
        loading={templates.isFetching}
        empty={list.state.searchString ? 'No templates match your search.' : 'No templates yet.'}
      />
      {dialog.kind === 'create' && <CreateTemplateDialog key={dialog.seq} open={dialog.open} onClose={close} />}
      {dialog.kind === 'rename' && (
        <RenameTemplateDialog key={dialog.seq} template={dialog.template} open={dialog.open} onClose={close} />
      )}
      {dialog.kind === 'delete' && (
        <DeleteTemplateDialog key={dialog.seq} template={dialog.template} open={dialog.open} onClose={close} />
      )}
    </section>
  );
}
