/**
 * Admission control: every request takes a turn in a {@link FairQueue} before its handler runs, so
 * a flood is served in order of arrival, one tenant's flood cannot starve another tenant, and a
 * saturated gateway answers 503 with `Retry-After` at once instead of holding connections.
 *
 * Why the gateway needs it (bench/fairness.ts; bench/README.md, "Admission control"): a database has
 * a bounded number of connections (embedded PGlite one, a PostgreSQL server's pool a few), and without
 * a queue a flood of one tenant's requests holds them all while another tenant's requests wait behind
 * it. Here a request that cannot run yet costs a few microseconds and waits its lane's turn, and the
 * lanes take turns.
 *
 * - Lanes: the caller's tenant (the route's guard has authenticated it: guards are `onRequest`
 *   hooks, this is `preValidation`), else the signed-in user, else the client address.
 * - The turn is taken after the body is read, so a slow body cannot hold a turn while it trickles in
 *   (except the CSV import's upload, whose handler streams the body to disk: one turn of its tenant).
 * - A turn ends when the handler hands its answer over (onSend): a client that goes away does not end
 *   a turn whose work still runs, and a streamed answer (a CSV export) does not hold one while it is
 *   sent (its reads go on at their own pace, one statement per turn of the event loop on PGlite).
 * - A request that waited `maxWaitMs` is answered 503 (a timer runs only while requests wait).
 * - A route whose database work concurrent requests share (`config: { admission: 'shared' }`: its reads
 *   and writes are group commits, one statement for all the requests waiting) takes its turns in lanes
 *   of its own, wider (`sharedConcurrency`, `sharedLaneConcurrency`): there more requests at once cost
 *   the database fewer statements each, where another route's cost more.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { performance } from 'node:perf_hooks';
import type { AdmissionConfig } from '../config';
import { FairQueue } from './fair-queue';

export const BUSY_MESSAGE = 'The server is busy. Please try again in a moment.';

interface Waiter {
  key: string;
  reply: FastifyReply;
  done: HookHandlerDoneFunction;
}

/** The lane of a request: its tenant, else its user, else its client address. */
export function laneOf(req: FastifyRequest): string {
  const auth = req.auth;
  if (auth) return auth.tenantId ?? `user:${auth.user.id}`;
  return `address:${req.ip}`;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'shared': the route's database work is shared by concurrent requests (its own, wider lanes). */
    admission?: 'shared';
  }
  interface FastifyRequest {
    /** The lane whose turn this request holds (lib/admission.ts), until its answer is handed over. */
    admissionLane: string | null;
  }
}

export interface AdmissionOptions {
  /** The lane of a request (default {@link laneOf}). */
  lane?: (req: FastifyRequest) => string;
  /** The clock of waiting times (ms). */
  now?: () => number;
  /**
   * Told when requests start running (true: the first holds a turn) and when none does any more
   * (false): the database's signal (db/storage.ts requestsRunningSignal), so background work gives way.
   */
  onRunning?: (running: boolean) => void;
}

/** What admission holds now (for /health and tests). */
export interface AdmissionState {
  readonly running: number;
  readonly queued: number;
}

/** Installs the admission hooks on `app` (before the routes they should cover are registered). */
export function installAdmission(
  app: FastifyInstance,
  config: AdmissionConfig,
  options: AdmissionOptions = {},
): AdmissionState {
  const { lane = laneOf, now = () => performance.now(), onRunning } = options;
  const general = new FairQueue<Waiter>(config);
  const shared = new FairQueue<Waiter>({
    ...config,
    concurrency: config.sharedConcurrency,
    laneConcurrency: config.sharedLaneConcurrency,
  });
  /** The lanes of shared routes are named with this prefix: a turn ends in the queue it was taken in. */
  const SHARED = 'shared\n';
  const queueOf = (key: string) => (key.startsWith(SHARED) ? shared : general);
  let wasRunning = false;
  /** Tells `onRunning` when requests start or stop running. */
  const told = () => {
    const running = general.running + shared.running > 0;
    if (running === wasRunning) return;
    wasRunning = running;
    onRunning?.(running);
  };
  const state: AdmissionState = {
    get running() {
      return general.running + shared.running;
    },
    get queued() {
      return general.queued + shared.queued;
    },
  };
  if (config.concurrency <= 0) return state;
  const retryAfter = String(Math.max(1, Math.ceil(config.maxWaitMs / 1000)));
  let sweeper: NodeJS.Timeout | null = null;

  const busy = (reply: FastifyReply) => {
    if (reply.sent) return;
    reply
      .code(503)
      .header('Retry-After', retryAfter)
      .type('application/json; charset=utf-8')
      .send({ message: BUSY_MESSAGE });
  };

  /** The turn of `req` ends: the requests whose turn comes start. */
  function end(req: FastifyRequest) {
    const key = req.admissionLane;
    if (key === null) return;
    req.admissionLane = null;
    for (const next of queueOf(key).release(key)) resume(next);
    told();
  }

  /** A waiting request whose turn has come. */
  function resume({ key, reply, done }: Waiter) {
    const req = reply.request;
    req.admissionLane = key;
    // A client that went away while waiting gets no work done: its turn ends at once.
    if (req.raw.socket?.destroyed !== false) {
      end(req);
      return;
    }
    done();
  }

  function sweep() {
    for (const q of [general, shared]) for (const waiter of q.expire(now() - config.maxWaitMs)) busy(waiter.reply);
    if (general.queued + shared.queued === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }

  app.decorateRequest('admissionLane', null);
  app.addHook('preValidation', (req, reply, done) => {
    const key = req.routeOptions.config?.admission === 'shared' ? `${SHARED}${lane(req)}` : lane(req);
    const queue = queueOf(key);
    if (queue.tryRun(key)) {
      req.admissionLane = key;
      told();
      done();
      return;
    }
    if (queue.wait(key, { key, reply, done }, now()) === 'full') {
      busy(reply);
      return;
    }
    sweeper ??= setInterval(sweep, Math.max(5, Math.floor(config.maxWaitMs / 4))).unref();
  });
  // The turn ends when the answer is handed over: its work is done (a stream's goes on in its own
  // pace), and a client that went away meanwhile did not end it earlier.
  app.addHook('onSend', (req, _reply, payload, done) => {
    if (req.admissionLane !== null) end(req);
    done(null, payload);
  });
  app.addHook('onClose', (_app, done) => {
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
    done();
  });
  return state;
}
