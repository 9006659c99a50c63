import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/index';
import type { JobRunner } from './jobs/index';
import type { BackgroundTasks } from './lib/background';
import type { Mailer } from './mail/mailer';

/**
 * The services, built once at start by the composition root (src/composition.ts `createDeps`, for the
 * gateway and for the workers process alike), decorated on the app as `app.deps` for every area's
 * routes and handed to every area's job registration.
 *
 * This file names no area: an area that brings a service of its own (auth's login throttle, billing's
 * payment provider, onboarding's file storage) adds it to this interface from its own index.ts by
 * declaration merging (`declare module '../deps' { interface Deps { … } }`), and the composition
 * root builds it.
 */
export interface Deps {
  db: Database;
  config: Config;
  /** The gateway's logger (the workers process's own there). */
  log: FastifyBaseLogger;
  mailer: Mailer;
  background: BackgroundTasks;
  /** The durable job runner (jobs/runner.ts): all background work that must survive a restart. */
  jobs: JobRunner;
  /** The time the services read; a fixed clock in tests (BuildOptions.clock). */
  clock: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}
