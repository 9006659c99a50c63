import { UserPage } from '@console/shared/contracts';
import { api } from '@console/shared/api';

export function fetchUsers() {
  return api.get('/v1/users', UserPage, { page: 1, perPage: 100, sortField: 'created_at', sortOrder: 'asc' });
}
