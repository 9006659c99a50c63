/** The widgets feature's calls and query keys (['widgets', query]; target lists under ['lists', 'all']). */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import { ListPage, MessageResponse, WidgetDetail, WidgetPage, type WidgetInput } from '@console/shared/contracts';
import { widgetTargets } from './widget-targets';

export type WidgetQueryParams = Record<string, string | number>;

/** Spec section 8: fetch errors are only logged. */
function logged<T>(what: string, promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    console.error(`[console] ${what} failed`, error);
    throw error;
  });
}

export function fetchWidgets(query: WidgetQueryParams) {
  return logged('widgets fetch', api.get('/v1/widgets', WidgetPage, query));
}

export function fetchWidget(id: string) {
  return logged('widget fetch', api.get(`/v1/widgets/${encodeURIComponent(id)}`, WidgetDetail));
}

export function createWidget(input: WidgetInput) {
  return api.post('/v1/widgets', WidgetDetail, input);
}

export function updateWidget(id: string, input: WidgetInput) {
  return api.patch(`/v1/widgets/${encodeURIComponent(id)}`, WidgetDetail, input);
}

export function deleteWidget(id: string) {
  return api.delete(`/v1/widgets/${encodeURIComponent(id)}`, MessageResponse);
}

/** The all-lists fetch (spec section 9: perPage 1000). */
export const ALL_LISTS_PER_PAGE = 1000;

export function fetchAllLists() {
  return logged('lists fetch', api.get('/v1/lists', ListPage, { perPage: ALL_LISTS_PER_PAGE }));
}

/** Lists a widget may sign people up to (no auto-import lists, no community lists). */
export function useWidgetTargets(enabled: boolean) {
  return useQuery({
    queryKey: ['lists', 'all'],
    queryFn: fetchAllLists,
    select: (page) => widgetTargets(page.records),
    enabled,
  });
}

export function invalidateWidgets(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: ['widgets'] });
}
