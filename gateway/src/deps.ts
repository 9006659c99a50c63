import type { Config } from './config';
import type { Database } from './db/index';
import type { Mailer } from './mail/mailer';
import type { AuthContext } from './auth/session';
import type { LoginThrottle } from './auth/throttle';
import type { JobRunner } from './jobs/runner';
import type { BackgroundTasks } from './lib/background';

/** What every route needs, decorated on the app as `app.deps`. */
export interface Deps {
  db: Database;
  config: Config;
  mailer: Mailer;
  throttle: LoginThrottle;
  background: BackgroundTasks;
  /** The durable job runner (jobs/runner.ts): all background work that must survive a restart. */
  jobs: JobRunner;
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
