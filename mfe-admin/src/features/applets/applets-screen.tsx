import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@console/shared/router';
import { Button } from '@console/shared/ui';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import type { Applet, AppletSortField } from '@console/shared/contracts';
import { PLANS_KEY, fetchPlans } from '../plans/api';
import { APPLETS_KEY, fetchApplets } from './api';
import { appletColumns } from './applet-columns';
import { DeleteAppletDialog } from './delete-applet-dialog';
import { NEW_APPLET } from './applet-editor';

const DEFAULT_SORT = { field: 'created_at', order: 'desc' } as const;

/** Applets (admin_applets): search, sortable grid, paging (spec section 3); New applet; Delete with a confirm. */
export function AppletsScreen() {
  const navigate = useNavigate();
  const query = useListQuery<AppletSortField>({ defaultSort: DEFAULT_SORT });
  // Spec section 4: the list reloads on query change (the key) and after a save or delete (invalidation).
  const applets = useQuery({
    queryKey: [...APPLETS_KEY, 'list', query.query],
    queryFn: () => fetchApplets(query.query),
    placeholderData: keepPreviousData,
  });
  const plans = useQuery({ queryKey: PLANS_KEY, queryFn: fetchPlans });
  const [deleting, setDeleting] = useState<Applet | null>(null);
  const columns = useMemo(
    () =>
      appletColumns({
        planNames: new Map((plans.data ?? []).map((plan) => [plan._id, plan.name])),
        onDelete: setDeleting,
      }),
    [plans.data],
  );

  return (
    <section>
      <PageHeader
        title="Applets"
        description="Add-on screens offered to communities: each a federated remote, included by plans or enabled per tenant."
        actions={<Button onClick={() => void navigate(`/applets/${NEW_APPLET}`)}>New applet</Button>}
      />
      <QueryGrid<Applet, AppletSortField>
        label="Applets"
        list={query}
        search={{ label: 'Search applets', placeholder: 'Name, slug or description' }}
        page={applets.data}
        error={applets.error?.message}
        columns={columns}
        rowKey={(row) => row._id}
        empty="No applets found."
        loading={applets.isFetching}
      />
      <DeleteAppletDialog applet={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
