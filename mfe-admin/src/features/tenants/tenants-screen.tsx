import { useCallback, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Tenant } from '@console/shared/contracts';
import { ImpersonationFailed } from './impersonation-failed';
import { PageHeader } from '@console/shared/layout';
import { QueryGrid, useListQuery, useUrlFilterBinding, useUrlFilters } from '@console/shared/lists';
import { Button } from '@console/shared/ui';
import { fetchTenantOptions, fetchTenantStats, fetchTenants, tenantKeys } from './api';
import { CreateTenantDialog } from './create-tenant-dialog';
import { DeleteTenantDialog } from './delete-tenant-dialog';
import { LoadFailed } from './load-failed';
import { tenantColumns, type TenantSortField } from './tenant-columns';
import { TenantFilters } from './tenant-filters';
import { filtersFromSearchParams, hasTenantFilters, TENANT_URL_FILTERS, toTenantQuery } from './tenant-query';
import { TenantSlideOver } from './tenant-slide-over';
import { TenantStatsPanel } from './tenant-stats';

const DEFAULT_SORT = { field: 'created_at', order: 'desc' } as const;

interface Opened<T> {
  open: boolean;
  value: T;
  /** A new key per opening: a fresh form each time. */
  key: number;
}

function useOpened<T>(initial: T) {
  const [state, setState] = useState<Opened<T>>({ open: false, value: initial, key: 0 });
  const open = useCallback((value: T) => setState((s) => ({ open: true, value, key: s.key + 1 })), []);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return [state, open, close] as const;
}

/**
 * Tenants (admin_tenants): figures and charts over the listed tenants, the grid with the spec's list
 * behaviour and its filters (kept in the URL), a tenant's detail in a slide-over, create and delete.
 */
export function TenantsScreen() {
  // Every filter is kept in the URL, so a reload or a shared link shows the same tenants.
  const url = useUrlFilters({ keys: TENANT_URL_FILTERS, parse: filtersFromSearchParams, write: 'all' });
  const list = useListQuery<TenantSortField>({ defaultSort: DEFAULT_SORT, initialFilters: url.initialFilters });
  const { setFilter, setFilters, clearFilters } = useUrlFilterBinding(url, list);

  const query = useMemo(() => toTenantQuery(list.query), [list.query]);
  const tenants = useQuery({
    queryKey: tenantKeys.page(query),
    queryFn: () => fetchTenants(query),
    placeholderData: keepPreviousData,
  });
  const stats = useQuery({
    queryKey: tenantKeys.stats(query),
    queryFn: () => fetchTenantStats(query),
    placeholderData: keepPreviousData,
  });
  const options = useQuery({ queryKey: tenantKeys.options, queryFn: fetchTenantOptions });

  const [detail, openDetail, closeDetail] = useOpened<string | null>(null);
  const [creating, openCreate, closeCreate] = useOpened<null>(null);
  const [deleting, openDelete, closeDelete] = useOpened<Tenant | null>(null);
  const columns = useMemo(() => tenantColumns((tenant) => openDetail(tenant._id)), [openDetail]);
  const askDelete = useCallback(
    (tenant: Tenant) => {
      closeDetail();
      openDelete(tenant);
    },
    [closeDetail, openDelete],
  );

  return (
    <section>
      <PageHeader
        title="Tenants"
        description="Communities on the platform, their plans and their users."
        actions={<Button onClick={() => openCreate(null)}>Create tenant</Button>}
      />
      <ImpersonationFailed />
      {stats.isError ? (
        <LoadFailed what="The figures" onRetry={() => void stats.refetch()} retrying={stats.isFetching} />
      ) : (
        stats.data && <TenantStatsPanel stats={stats.data} />
      )}
      {tenants.isError && (
        <LoadFailed what="The tenants" onRetry={() => void tenants.refetch()} retrying={tenants.isFetching} />
      )}
      <QueryGrid<Tenant, TenantSortField>
        label="Tenants"
        list={list}
        page={tenants.data}
        search={{ label: 'Search tenants', placeholder: 'Search by name or owner' }}
        toolbar={
          <TenantFilters
            options={options.data}
            filters={list.state.filters}
            onFilter={setFilter}
            onFilters={setFilters}
            onClear={clearFilters}
            canClear={hasTenantFilters(list.state.filters)}
          />
        }
        columns={columns}
        rowKey={(row) => row._id}
        empty={tenants.isError ? 'No tenants to show.' : tenants.isPending ? 'Loading tenants…' : 'No tenants found.'}
        loading={tenants.isFetching}
      />
      <TenantSlideOver
        key={`detail-${detail.key}`}
        tenantId={detail.value}
        open={detail.open}
        onClose={closeDetail}
        onDelete={askDelete}
      />
      <CreateTenantDialog key={`create-${creating.key}`} open={creating.open} onClose={closeCreate} />
      {deleting.value && (
        <DeleteTenantDialog
          key={`delete-${deleting.key}`}
          tenant={deleting.value}
          open={deleting.open}
          onClose={closeDelete}
        />
      )}
    </section>
  );
}
