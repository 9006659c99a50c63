/** Smart-contract monitoring's calls and query keys (everything under ['onchain']). */
import { api } from '@console/shared/api';
import {
  ChainList,
  ContractEventPage,
  NoContent,
  OnchainQuota,
  WatchedContract,
  WatchedContractDetail,
  WatchedContractPage,
  type WatchContractInput,
  type WatchContractPatch,
} from '@console/shared/contracts';

export const ONCHAIN_KEY = ['onchain'] as const;

const contractPath = (id: string) => `/v1/onchain/contracts/${encodeURIComponent(id)}`;

export const fetchChains = () => api.get('/v1/onchain/chains', ChainList);
export const fetchQuota = () => api.get('/v1/onchain/quota', OnchainQuota);
export const fetchContracts = (query: Record<string, string | number>) =>
  api.get('/v1/onchain/contracts', WatchedContractPage, query);
export const fetchContract = (id: string) => api.get(contractPath(id), WatchedContractDetail);
export const watchContract = (input: WatchContractInput) => api.post('/v1/onchain/contracts', WatchedContract, input);
export const patchContract = (id: string, patch: WatchContractPatch) =>
  api.patch(contractPath(id), WatchedContract, patch);
// 204: no body to read.
export const stopWatching = (id: string) => api.delete(contractPath(id), NoContent);
export const fetchContractEvents = (id: string, query: Record<string, string | number>) =>
  api.get(`${contractPath(id)}/events`, ContractEventPage, query);
