/** The Custom Domains feature's calls and query keys (everything under ['domains']). */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import { MessageResponse, SendingDomain, SendingDomainList } from '@console/shared/contracts';

export const DOMAINS_KEY = ['domains'] as const;

const domainPath = (id: string) => `/v1/domains/${encodeURIComponent(id)}`;

/** GET /v1/domains: the community's sending domains with their records. */
export const fetchDomains = () => api.get('/v1/domains', SendingDomainList);

/** POST /v1/domains: adds a domain; the answer lists the records to publish. */
export const addDomain = (domain: string) => api.post('/v1/domains', SendingDomain, { domain });

/** POST /v1/domains/{id}/verify: looks the records up now. */
export const verifyDomain = (id: string) => api.post(`${domainPath(id)}/verify`, SendingDomain, {});

/** DELETE /v1/domains/{id}. */
export const deleteDomain = (id: string) => api.delete(domainPath(id), MessageResponse);

export const invalidateDomains = (client: QueryClient) => client.invalidateQueries({ queryKey: DOMAINS_KEY });

/** Puts a domain the gateway answered into the cached list (no refetch needed to show it). */
export function storeDomain(client: QueryClient, domain: SendingDomain) {
  client.setQueryData<SendingDomainList>(DOMAINS_KEY, (list) =>
    list ? { records: list.records.map((d) => (d._id === domain._id ? domain : d)) } : list,
  );
}
