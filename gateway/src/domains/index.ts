import type { Area } from '../area';
import { registerDomainJobs } from './recheck-job';
import { domainRoutes } from './routes';

/** Custom sending domains (`/v1/domains`). */
export const domainsArea: Area = {
  routes: async (app) => {
    await app.register(domainRoutes, { prefix: '/v1/domains' });
  },
  // The daily re-check of verified domains.
  jobs: (jobs, { db, config, log, mailer }) => registerDomainJobs(jobs, db, config, log, mailer),
};

// What other areas use from this one.
export { recheckDomains, RECHECK_QUEUE } from './recheck-job';
export { dkimKeyFor, dkimSignMessage, dkimSignMessageWith, type DkimKey } from './dkim';
export { trackingBaseFor } from './tracking-host';
export { effectiveSender, senderRefusal, verifiedDomains } from './senders';
