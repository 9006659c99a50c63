import * as z from 'zod/mini';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChainList,
  ContractEventListQuery,
  ContractEventPage,
  OnchainQuota,
  WatchContractInput,
  WatchContractPatch,
  WatchedContract,
  WatchedContractDetail,
  WatchedContractListQuery,
  WatchedContractPage,
} from '../contracts';
import { authOf, requirePermission, tenantOf } from '../auth/index';
import { bearer, errorResponses } from '../lib/openapi';
import { IdParams } from '../lib/route-params';
import {
  contractEvents,
  type ContractStoreDeps,
  createContract,
  deleteContract,
  getContract,
  listContracts,
  quota,
  updateContract,
} from './contract-store';

const tags = ['onchain'];
const PERMISSION = 'Permission monitor_smart_contracts (the plan feature of the same name gates it).';

/**
 * Smart-contract monitoring (`/v1/onchain`; engagement/smart-contracts): the chains, the plan's quota,
 * the tenant's watched contracts and their event feeds. Every route is scoped by the caller's tenant:
 * another tenant's contract is a 404.
 */
export function onchainRoutes(store: ContractStoreDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const onRequest = requirePermission('monitor_smart_contracts');

    app.get(
      '/chains',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'The chains the gateway reads',
          description: `${PERMISSION} Each with its explorer and its head now (null when its RPC does not answer within a second).`,
          response: { 200: ChainList, ...errorResponses(401, 403) },
        },
      },
      async () => ({
        records: await Promise.all(
          store.chains.map(async (c) => {
            const head = await store.head(c.id);
            return {
              id: c.id,
              name: c.name,
              explorer_url: c.explorerUrl,
              head_block: head === null ? null : head.toString(),
            };
          }),
        ),
      }),
    );

    app.get(
      '/quota',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Contracts watched and the plan’s limit',
          description: `${PERMISSION} BASIC and START UP watch 2 contracts, GROW UP 3, SCALE UP 6.`,
          response: { 200: OnchainQuota, ...errorResponses(401, 403) },
        },
      },
      async (req) => quota(store.db, tenantOf(req)),
    );

    app.get(
      '/contracts',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'The watched contracts',
          description: `${PERMISSION} Search on the name or address; sorted by created_at, name or state; paged.`,
          querystring: WatchedContractListQuery,
          response: { 200: WatchedContractPage, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => listContracts(store, tenantOf(req), req.query),
    );

    app.post(
      '/contracts',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Watch a contract',
          description:
            `${PERMISSION} chain_id (one of GET /v1/onchain/chains), address (EIP-55 checksummed when mixed-case), ` +
            'name, abi (the JSON as pasted), events (signatures from the ABI), start_block (default: the chain’s head), ' +
            'confirmations (1 to 1000, default 1). 400 names the fields; 409 when the address is already watched on ' +
            'the chain; 403 past the plan’s number of smart contracts.',
          body: WatchContractInput,
          response: { 201: WatchedContract, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await createContract(store, tenantOf(req), authOf(req).user.id, req.body)),
    );

    app.get(
      '/contracts/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'One watched contract',
          description: `${PERMISSION} With its ABI's events (for editing the watched set).`,
          params: IdParams,
          response: { 200: WatchedContractDetail, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => getContract(store, tenantOf(req), req.params.id),
    );

    app.patch(
      '/contracts/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Rename, change the events or confirmations, pause or resume',
          description: `${PERMISSION} Newly watched events are read from the checkpoint on (blocks already read are not read again).`,
          params: IdParams,
          body: WatchContractPatch,
          response: { 200: WatchedContract, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => updateContract(store, tenantOf(req), req.params.id, req.body),
    );

    app.delete(
      '/contracts/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Stop watching a contract',
          description: `${PERMISSION} Its events and balances go with it.`,
          params: IdParams,
          response: { 204: z.null(), ...errorResponses(401, 403, 404) },
        },
      },
      async (req, reply) => {
        await deleteContract(store, tenantOf(req), req.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/contracts/:id/events',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'A contract’s confirmed events',
          description:
            `${PERMISSION} Newest first (sortOrder asc: oldest first); \`event\` filters by event name. Each event with ` +
            'its decoded arguments, its transaction on the chain’s explorer, and the contacts whose wallet it names.',
          params: IdParams,
          querystring: ContractEventListQuery,
          response: { 200: ContractEventPage, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => contractEvents(store, tenantOf(req), req.params.id, req.query),
    );
  };
}
