import { api, TenantPage } from '@console/shared';

export function fetchTenants(query: { page: number; perPage: number; searchString: string }) {
  return api.get('/v1/tenants', TenantPage, {
    ...query,
    includeOwner: true,
    sortField: 'created_at',
    sortOrder: 'desc',
  });
}
