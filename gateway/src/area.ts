import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Deps } from './deps';
import type { JobRunner } from './jobs/index';

/**
 * What a product area (src/<area>/index.ts) hands the composition root (src/composition.ts), which calls
 * each part the same way for every area: an area registers its own decorations, routes and job
 * handlers, and no shared file names it.
 */
export interface Area {
  /**
   * On the root app, before any area's routes: request decorations and their types, hooks on the
   * whole app (onReady, onClose). Routes' own decorations belong in `routes`.
   */
  decorate?: (app: FastifyInstance) => void;
  /** The area's routes, one encapsulated plugin. */
  routes?: FastifyPluginAsync;
  /**
   * Declares the area's queues, handlers, schedules and start hooks on the job runner, before it
   * starts: the same in the gateway and in the separate workers process (src/workers.ts).
   */
  jobs?: (jobs: JobRunner, deps: Deps) => void;
}
