import type { FastifyPluginAsync } from 'fastify';
import { importRoutes } from './import/routes';
import { contactRoutes } from './contacts/routes';
import { listRoutes } from './lists/routes';
import { customAttributeRoutes } from './attributes/routes';
import { segmentRoutes } from './segments/routes';

/** Audience: contacts, lists, custom attributes, segments and CSV imports. */
export const audienceArea: FastifyPluginAsync = async (app) => {
  await app.register(importRoutes, { prefix: '/v1/imports' });
  await app.register(contactRoutes, { prefix: '/v1/contacts' });
  await app.register(listRoutes, { prefix: '/v1/lists' });
  await app.register(customAttributeRoutes, { prefix: '/v1/custom-attributes' });
  await app.register(segmentRoutes, { prefix: '/v1/segments' });
};

// What other areas use from this one.
export { registerImportJobs } from './import/import-runner';
export { normaliseEmail, normaliseWallet } from './contacts/contact-fields';
