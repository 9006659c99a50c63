import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, PageHeader, QueryGrid, useListQuery } from '@console/shared';
import type { Widget, WidgetDetail } from '@console/shared/contracts';
import { fetchWidgets } from './api';
import { DeleteWidgetDialog } from './delete-widget-dialog';
import { useWidgetCode } from './use-widget-code';
import { WidgetCodeDialog } from './widget-code-dialog';
import { widgetColumns, type WidgetSortField } from './widget-columns';
import { WidgetSlideOver } from './widget-slide-over';

const DEFAULT_SORT = { field: 'created_at', order: 'desc' } as const;
const SEARCH_CLASS =
  'block w-full max-w-md rounded-control border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset focus:outline-none';

/** The Widgets screen: search, sortable grid, paging, create/edit slide-over, code dialog and delete. */
export function WidgetsScreen() {
  const query = useListQuery<WidgetSortField>({ defaultSort: DEFAULT_SORT });
  const widgets = useQuery({
    queryKey: ['widgets', query.query],
    queryFn: () => fetchWidgets(query.query),
    placeholderData: keepPreviousData,
  });
  const [editor, setEditor] = useState<{ open: boolean; key: number; widget: Widget | null }>({
    open: false,
    key: 0,
    widget: null,
  });
  const [deleting, setDeleting] = useState<Widget | null>(null);
  const code = useWidgetCode();

  const { view } = code;
  const columns = useMemo(
    () =>
      widgetColumns({
        onViewCode: view,
        onEdit: (widget) => setEditor((e) => ({ open: true, key: e.key + 1, widget })),
        onDelete: setDeleting,
      }),
    [view],
  );

  return (
    <section>
      <PageHeader
        title="Widgets"
        description="Sign-up widgets for your website."
        actions={
          <Button onClick={() => setEditor((e) => ({ open: true, key: e.key + 1, widget: null }))}>
            Create a widget
          </Button>
        }
      />
      <label className="mb-4 block">
        <span className="mb-1 block text-sm font-medium text-slate-800">Search widgets</span>
        <input
          type="search"
          value={query.searchInput}
          maxLength={200}
          onChange={(event) => query.setSearchInput(event.target.value)}
          placeholder="Type or website"
          className={SEARCH_CLASS}
        />
      </label>
      <QueryGrid<Widget, WidgetSortField>
        label="Widgets"
        list={query}
        page={widgets.data}
        error={widgets.error?.message}
        columns={columns}
        rowKey={(row) => row._id}
        empty="No widgets found."
        loading={widgets.isFetching}
      />
      <WidgetSlideOver
        key={editor.key}
        open={editor.open}
        widget={editor.widget}
        onClose={() => setEditor((e) => ({ ...e, open: false }))}
        onSaved={(widget: WidgetDetail, created) => {
          if (created) code.show(widget);
        }}
      />
      <WidgetCodeDialog widget={code.widget} onClose={code.close} />
      <DeleteWidgetDialog widget={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
