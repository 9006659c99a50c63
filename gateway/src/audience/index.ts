import type { Area } from '../area';
import { importRoutes } from './import/routes';
import { contactRoutes } from './contacts/routes';
import { listRoutes } from './lists/routes';
import { customAttributeRoutes } from './attributes/routes';
import { segmentRoutes } from './segments/routes';
import { registerImportJobs } from './import/import-runner';

/** Audience: contacts, lists, custom attributes, segments and CSV imports. */
export const audienceArea: Area = {
  routes: async (app) => {
    await app.register(importRoutes, { prefix: '/v1/imports' });
    await app.register(contactRoutes, { prefix: '/v1/contacts' });
    await app.register(listRoutes, { prefix: '/v1/lists' });
    await app.register(customAttributeRoutes, { prefix: '/v1/custom-attributes' });
    await app.register(segmentRoutes, { prefix: '/v1/segments' });
  },
  // CSV imports run in slices on the job runner, with their housekeeping.
  jobs: (jobs, { db, config, log }) => registerImportJobs(jobs, db, config, log),
};

// What other areas use from this one.
export { normaliseEmail, normaliseWallet } from './contacts/contact-fields';
export { tenantAttributes } from './contacts/contact-wire';
export { segmentCondition } from './segments/segment-sql';
export { segmentContext, tenantSegmentContracts } from './segments/segment-context';
// The demo data (src/seed.ts).
export { DEMO_CONTACTS, demoContact, seedDemoAudience } from './contacts/demo-audience';
