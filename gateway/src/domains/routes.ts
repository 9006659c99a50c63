import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddDomainBody, MessageResponse, SendingDomain, SendingDomainList } from '../contracts';
import { requirePermission, tenantOf } from '../auth';
import { bearer, errorResponses } from '../lib/openapi';
import { IdParams } from '../lib/route-params';
import { createDnsLookup } from './dns-lookup';
import { SendingDomains } from './sending-domains';

/**
 * Custom Domains (spec section 2: account/custom-domains needs manage_domains; section 6: the plan
 * feature custom_domains). The guard answers the plan's 403 when the plan lacks the feature.
 */
const manageDomains = requirePermission('manage_domains');

/** The caller's sending domains (`/v1/domains`). */
export const domainRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, clock } = app.deps;
  const domains = new SendingDomains(db, config.domains, createDnsLookup(config.domains), clock);
  const tags = ['domains'];

  app.get(
    '',
    {
      onRequest: manageDomains,
      schema: {
        tags,
        security: bearer,
        summary: "The caller's sending domains",
        description: 'Permission manage_domains. Sorted by name; each with its DNS records and their last state.',
        response: { 200: SendingDomainList, ...errorResponses(401, 403) },
      },
    },
    async (req) => ({ records: await domains.list(tenantOf(req)) }),
  );

  app.post(
    '',
    {
      onRequest: manageDomains,
      schema: {
        tags,
        security: bearer,
        summary: 'Add a sending domain',
        description:
          'Permission manage_domains. A registrable domain or a subdomain of one (not a public suffix, not ' +
          'an IP address); internationalised names are stored in punycode. Generates the DKIM key (RSA-2048) ' +
          'and the verification token; the answer lists the records to publish.',
        body: AddDomainBody,
        response: { 201: SendingDomain, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await domains.add(tenantOf(req), req.body.domain)),
  );

  app.get(
    '/:id',
    {
      onRequest: manageDomains,
      schema: {
        tags,
        security: bearer,
        summary: 'One sending domain',
        params: IdParams,
        response: { 200: SendingDomain, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => domains.get(tenantOf(req), req.params.id),
  );

  app.post(
    '/:id/verify',
    {
      onRequest: manageDomains,
      schema: {
        tags,
        security: bearer,
        summary: 'Check the DNS records now',
        description:
          'Permission manage_domains. Looks every record up, stores what was found, and answers the domain: ' +
          'verified when the verification, SPF and DKIM records are published as shown.',
        params: IdParams,
        response: { 200: SendingDomain, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => domains.verify(tenantOf(req), req.params.id),
  );

  app.delete(
    '/:id',
    {
      onRequest: manageDomains,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a sending domain',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await domains.remove(tenantOf(req), req.params.id);
      return { message: 'Domain deleted.' };
    },
  );
};
