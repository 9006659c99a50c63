/** The lists feature's calls and query keys (['lists', query], ['lists', id]; contacts under ['contacts', query]). */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  AffectedResponse,
  ALL_LISTS_PER_PAGE,
  ContactPage,
  List,
  ListPage,
  MessageResponse,
  type ListInput,
} from '@console/shared/contracts';

export type ListQueryParams = Record<string, string | number>;

/** Spec section 8: list fetch errors are only logged. */
function logged<T>(what: string, promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    console.error(`[console] ${what} failed`, error);
    throw error;
  });
}

export function fetchLists(query: ListQueryParams) {
  return logged('lists fetch', api.get('/v1/lists', ListPage, query));
}

/**
 * The spec's all-lists fetch (perPage 1000): filters, selects and list names in the contacts grid,
 * list rules of segments, the import's target list. One key, so every screen shares one cache entry.
 */
export const allListsQuery = () =>
  queryOptions({
    queryKey: ['lists', 'all'],
    queryFn: () => api.get('/v1/lists', ListPage, { perPage: ALL_LISTS_PER_PAGE }),
    staleTime: 30_000,
  });

export function fetchList(id: string) {
  return api.get(`/v1/lists/${encodeURIComponent(id)}`, List);
}

export function createList(input: ListInput) {
  return api.post('/v1/lists', List, input);
}

export function updateList(id: string, input: Partial<ListInput>) {
  return api.patch(`/v1/lists/${encodeURIComponent(id)}`, List, input);
}

export function deleteList(id: string) {
  return api.delete(`/v1/lists/${encodeURIComponent(id)}`, MessageResponse);
}

/** PATCH /v1/lists/{id}/contacts: add contacts to the list. */
export function addContactsToList(id: string, contacts: readonly string[]) {
  return api.patch(`/v1/lists/${encodeURIComponent(id)}/contacts`, AffectedResponse, { contacts });
}

/** Contacts to pick from (the add-contacts dialog). */
export function searchContacts(query: ListQueryParams) {
  return api.get('/v1/contacts', ContactPage, query);
}

export function useListDetail(id: string) {
  return useQuery({ queryKey: ['lists', id], queryFn: () => fetchList(id), retry: false });
}

/** After lists or memberships changed. */
export function invalidateLists(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: ['lists'] }),
    client.invalidateQueries({ queryKey: ['contacts'] }),
    client.invalidateQueries({ queryKey: ['segments'] }),
  ]);
}
