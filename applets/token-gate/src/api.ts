/**
 * What the applet reads, through the console's own api client (the shared singleton: the session's
 * token and the gateway address come from the shell): the tenant's contact count (the overview) and
 * its community page. A tenant without a community (404) reads null.
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@console/shared/api';
import { Community, Overview } from '@console/shared/contracts';

export function useContactCount() {
  return useQuery({
    queryKey: ['applet-token-gate', 'contacts'],
    queryFn: async () => (await api.get('/v1/overview', Overview)).contacts.total,
  });
}

export function useCommunity() {
  return useQuery({
    queryKey: ['applet-token-gate', 'community'],
    queryFn: async (): Promise<Community | null> => {
      try {
        return await api.get('/v1/communities/my-community', Community);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
  });
}
