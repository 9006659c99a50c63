import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { Button } from '@console/shared/ui';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import type { Widget, WidgetDetail } from '@console/shared/contracts';
import { fetchWidgets } from './api';
import { DeleteWidgetDialog } from './delete-widget-dialog';
import { useWidgetCode } from './use-widget-code';
import { WidgetCodeDialog } from './widget-code-dialog';
import { widgetColumns, type WidgetSortField } from './widget-columns';
import { WidgetSlideOver } from './widget-slide-over';

const DEFAULT_SORT = { field: 'created_at', order: 'desc' } as const;

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
        description={
          <>
            Sign-up widgets for your website. They sign people up to your community: its name and alias are set on the{' '}
            {/* The sidebar shows Community Page only while impersonating (spec section 2); the route stays open
                to manage_community holders, so the screen that needs it links to it. */}
            <Link to="/onboarding/community-page" className="font-medium text-indigo-700 underline">
              community page
            </Link>
            .
          </>
        }
        actions={
          <Button onClick={() => setEditor((e) => ({ open: true, key: e.key + 1, widget: null }))}>
            Create a widget
          </Button>
        }
      />
      <QueryGrid<Widget, WidgetSortField>
        label="Widgets"
        list={query}
        search={{ label: 'Search widgets', placeholder: 'Type or website' }}
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
