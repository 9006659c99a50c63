import { TenantPage } from '@console/shared/contracts';
import { api } from '@console/shared/api';

export function fetchTenants(query: { page: number; perPage: number; searchString: string }) {
  return api.get('/v1/tenants', TenantPage, {
    ...query,
    includeOwner: true,
    sortField: 'created_at',
    sortOrder: 'desc',
  });
}
