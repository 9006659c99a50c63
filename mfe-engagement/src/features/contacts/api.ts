/**
 * The contacts feature's calls and query keys. Keys are shared with the other audience screens
 * (['contacts', query], ['lists', ...], ['custom-attributes', 'all'], ['segments', id]): mutations
 * invalidate by prefix.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  AffectedResponse,
  Contact,
  ContactPage,
  ListPage,
  type List,
  MessageResponse,
  Segment,
  type BulkContactsBody,
  type ContactFilter,
  type ContactInput,
} from '@console/shared/contracts';
import { filterSearchParams } from './contact-filter';
import { allListsQuery } from '../lists/api';
import { allAttributesQuery } from '../attributes/api';

export type ContactQuery = Record<string, string | number>;

export const contactKeys = {
  all: ['contacts'] as const,
  page: (query: ContactQuery) => ['contacts', query] as const,
};

export function fetchContacts(query: ContactQuery) {
  return api.get('/v1/contacts', ContactPage, query);
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
  return useQuery({ ...allListsQuery(), select: byName });
}

/** Every custom attribute. Without the custom_attributes permission this fails: callers treat it as none. */
export function useAllAttributes() {
  return useQuery(allAttributesQuery());
}

/** After contacts changed: grids, list member counts and segment counts may all differ. */
export function invalidateAudience(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: contactKeys.all }),
    client.invalidateQueries({ queryKey: ['lists'] }),
    client.invalidateQueries({ queryKey: ['segments'] }),
  ]);
}

export function fetchContact(id: string) {
  return api.get(`/v1/contacts/${encodeURIComponent(id)}`, Contact);
}
