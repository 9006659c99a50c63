import type { Config } from './config';
import type { Database } from './db/index';
import type { Mailer } from './mail/mailer';
import type { AuthContext } from './auth/session';
import type { LoginThrottle } from './auth/throttle';
import type { JobRunner } from './jobs/runner';
import type { BackgroundTasks } from './lib/background';

import type { BillingSetup } from './billing/index';
import type { Storage } from './onboarding/index';

/** The services, built once at start (src/app.ts), decorated on the app as `app.deps` for every area. */
export interface Deps {
  db: Database;
  config: Config;
  mailer: Mailer;
  throttle: LoginThrottle;
  background: BackgroundTasks;
  /** The durable job runner (jobs/runner.ts): all background work that must survive a restart. */
  jobs: JobRunner;
  /** The payment provider (local or Stripe) chosen from config. */
  billing: BillingSetup;
  /** Where uploaded images go (local files or S3). */
  storage: Storage;
  /** The time the services read; a fixed clock in tests (BuildOptions.clock). */
  clock: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
  interface FastifyRequest {
    /** Set by `authenticate` / `requirePermission`; null on public routes. */
    auth: AuthContext | null;
  }
}
