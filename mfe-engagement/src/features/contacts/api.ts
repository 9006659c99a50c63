/**
 * The contacts feature's calls and query keys. Keys are shared with the other audience screens
 * (['contacts', query], ['lists', ...], ['custom-attributes', 'all'], ['segments', id]): mutations
 * invalidate by prefix.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  AffectedResponse,
  ALL_LISTS_PER_PAGE,
  Contact,
  ContactPage,
  CustomAttributePage,
  ListPage,
  type List,
  MAX_ATTRIBUTES_PER_TENANT,
  MessageResponse,
  Segment,
  type BulkContactsBody,
  type ContactFilter,
  type ContactInput,
} from '@console/shared/contracts';
import { filterSearchParams } from './contact-filter';

export type ContactQuery = Record<string, string | number>;

export const contactKeys = {
  all: ['contacts'] as const,
  page: (query: ContactQuery) => ['contacts', query] as const,
};
export const ALL_LISTS_KEY = ['lists', 'all'] as const;
export const ALL_ATTRIBUTES_KEY = ['custom-attributes', 'all'] as const;

export function fetchContacts(query: ContactQuery) {
  return api.get('/v1/contacts', ContactPage, query);
}

/** The spec's all-lists fetch (filters, selects, list names in the grid). */
export function fetchAllLists() {
  return api.get('/v1/lists', ListPage, { perPage: ALL_LISTS_PER_PAGE });
}

/** Every custom attribute of the tenant (at most MAX_ATTRIBUTES_PER_TENANT), by name. */
export function fetchAllAttributes() {
  return api.get('/v1/custom-attributes', CustomAttributePage, {
    perPage: MAX_ATTRIBUTES_PER_TENANT,
    sortField: 'name',
    sortOrder: 'asc',
  });
}

export function fetchSegment(id: string) {
  return api.get(`/v1/segments/${encodeURIComponent(id)}`, Segment);
}

export function createContact(input: ContactInput) {
  return api.post('/v1/contacts', Contact, input);
}

export function updateContact(id: string, input: ContactInput) {
  return api.patch(`/v1/contacts/${encodeURIComponent(id)}`, Contact, input);
}

export function deleteContact(id: string) {
  return api.delete(`/v1/contacts/${encodeURIComponent(id)}`, MessageResponse);
}

export function bulkContacts(body: BulkContactsBody) {
  return api.post('/v1/contacts/bulk', AffectedResponse, body);
}

/** DELETE /v1/lists/{id}/contacts: take picked contacts out of one list. */
export function removeFromList(listId: string, contacts: readonly string[]) {
  return api.delete(`/v1/lists/${encodeURIComponent(listId)}/contacts`, AffectedResponse, { contacts });
}

/** The filtered contacts as a CSV file. */
export function exportContacts(filter: ContactFilter) {
  return api.download('/v1/contacts/export', filterSearchParams(filter));
}

const byName = (page: ListPage): List[] => [...page.records].sort((a, b) => a.name.localeCompare(b.name));

/** Every list, by name (the cache holds the page as fetched: the key is shared with other screens). */
export function useAllLists() {
  return useQuery({ queryKey: ALL_LISTS_KEY, queryFn: fetchAllLists, staleTime: 30_000, select: byName });
}

/** Every custom attribute. Without the custom_attributes permission this fails: callers treat it as none. */
export function useAllAttributes() {
  return useQuery({ queryKey: ALL_ATTRIBUTES_KEY, queryFn: fetchAllAttributes, staleTime: 60_000, retry: false });
}

/** After contacts changed: grids, list member counts and segment counts may all differ. */
export function invalidateAudience(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: contactKeys.all }),
    client.invalidateQueries({ queryKey: ['lists'] }),
    client.invalidateQueries({ queryKey: ['segments'] }),
  ]);
}
