import { queryOptions } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  CustomAttribute,
  CustomAttributePage,
  MAX_ATTRIBUTES_PER_TENANT,
  MessageResponse,
  type CustomAttributeInput,
} from '@console/shared/contracts';

/** Every query of this feature starts with this key: invalidate it after a change. */
export const ATTRIBUTES_KEY = ['custom-attributes'] as const;

const path = (id: string) => `/v1/custom-attributes/${encodeURIComponent(id)}`;

export const fetchAttributes = (query: Record<string, string | number>) =>
  api.get('/v1/custom-attributes', CustomAttributePage, query);

/** One attribute with `value_count` (how many contacts hold a value; costs the gateway a scan). */
export const fetchAttribute = (id: string) => api.get(path(id), CustomAttribute);

export const createAttribute = (input: CustomAttributeInput) =>
  api.post('/v1/custom-attributes', CustomAttribute, input);

export const renameAttribute = (id: string, name: string) => api.patch(path(id), CustomAttribute, { name });

export const deleteAttribute = (id: string) => api.delete(path(id), MessageResponse);

/**
 * Every attribute of the tenant (at most MAX_ATTRIBUTES_PER_TENANT), for import targets and segment
 * fields. A user without the custom_attributes permission gets an error here: callers treat that as none.
 */
export const allAttributesQuery = () =>
  queryOptions({
    queryKey: [...ATTRIBUTES_KEY, 'all'],
    queryFn: () =>
      api.get('/v1/custom-attributes', CustomAttributePage, {
        perPage: MAX_ATTRIBUTES_PER_TENANT,
        sortField: 'name',
        sortOrder: 'asc',
      }),
    staleTime: 60_000,
    retry: false,
  });
