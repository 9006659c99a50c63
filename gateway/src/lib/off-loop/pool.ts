/**
 * The one worker pool for untrusted and CPU-bound work (piscina): tenants' template renders and DKIM
 * signing run here, never on the gateway's event loop, so one tenant's heavy template never holds
 * another tenant's request (docs/fair-load.md, "Work off the event loop").
 *
 * - Small: `OFF_LOOP_THREADS` threads, by default one less than the machine's cores (at least one):
 *   the gateway's own loop keeps a core.
 * - Bounded: at most `OFF_LOOP_QUEUE` tasks wait; beyond, a task is refused at once (OffLoopRetry).
 * - Guarded: a task not done `OFF_LOOP_GUARD_MS` after it was handed over is given up; a worker still
 *   running it is terminated and replaced. The template limits (templates/render/liquid.ts) count the
 *   template's own work; this guard is only the last resort against what they do not count.
 * - A task the pool gave up (refused, past the guard, its worker died) may pass on a later try: it
 *   rejects with OffLoopRetry. What the task itself decides comes back as its result.
 *
 * A thread (src/off-loop-worker.ts) runs the tasks its table names. It loads the gateway's code the
 * way this process does: from the production bundle (dist/off-loop-worker.mjs, build.mjs), or from the
 * TypeScript sources through tsx (src/off-loop-worker-tsx.mjs registers it in the thread).
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';

/**
 * A kind of task: its name (the worker's table, off-loop-worker.ts, maps it to the function that runs
 * it) and the types of its input and output (structured-cloneable).
 */
export interface OffLoopTask<I, O> {
  readonly name: string;
  /** Types only: never set. */
  readonly types?: (input: I) => O;
}

export function offLoopTask<I, O>(name: string): OffLoopTask<I, O> {
  return { name };
}

export interface OffLoopSettings {
  /** Worker threads (OFF_LOOP_THREADS). */
  threads: number;
  /** Tasks waiting at most (OFF_LOOP_QUEUE). */
  queue: number;
  /** Milliseconds after which a task is given up and its worker replaced (OFF_LOOP_GUARD_MS). */
  guardMs: number;
}

/** One less than the cores (the gateway's loop keeps one), at least one. */
export function defaultThreads(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

export const DEFAULT_OFF_LOOP: OffLoopSettings = { threads: defaultThreads(), queue: 256, guardMs: 10_000 };

/** The pool gave the task up: it may pass later (deferred, not failed). */
export class OffLoopRetry extends Error {
  constructor(
    message: string,
    readonly reason: 'busy' | 'timeout' | 'crashed',
  ) {
    super(message);
    this.name = 'OffLoopRetry';
  }
}

/**
 * The worker's file: the bundle's sibling when this runs from dist/, else the TypeScript source.
 * `npm test` runs test files from a bundle whose `import.meta` names the sources, and bundles the
 * worker beside them (gateway/test/bundle.mjs): TEST_OFF_LOOP_WORKER names it, so threads load no tsx.
 */
function workerFile(): string {
  const bundled = process.env.TEST_OFF_LOOP_WORKER;
  if (bundled) return pathToFileURL(bundled).href;
  const here = import.meta.url;
  // From the sources: gateway/src/lib/off-loop/pool.ts; bundled: gateway/dist/main.mjs (or workers.mjs).
  return new URL(here.endsWith('.ts') ? '../../off-loop-worker-tsx.mjs' : './off-loop-worker.mjs', here).href;
}

export class OffLoopPool {
  private readonly piscina: Piscina;

  constructor(readonly settings: OffLoopSettings) {
    this.piscina = new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: Math.max(1, settings.threads),
      maxQueue: Math.max(0, settings.queue),
      // Idle threads stop after a minute (a gateway that renders nothing keeps none).
      idleTimeout: 60_000,
    });
  }

  /** Tasks waiting for a thread. */
  get waiting(): number {
    return this.piscina.queueSize;
  }

  /**
   * Runs `name` with `input` in a worker. Rejects with OffLoopRetry when the pool gives the task up
   * (the queue is full, the guard passed, the worker died); with the task's own error otherwise.
   */
  async run<I, O>(task: OffLoopTask<I, O>, input: I, options: { guardMs?: number } = {}): Promise<O> {
    const guardMs = options.guardMs ?? this.settings.guardMs;
    const guard = new AbortController();
    const timer = setTimeout(() => guard.abort(), guardMs);
    try {
      // What the worker's function for this task returned (structured clone of an O).
      const output: O = await this.piscina.run({ name: task.name, input }, { signal: guard.signal });
      return output;
    } catch (error) {
      if (guard.signal.aborted) {
        throw new OffLoopRetry(`The work took longer than ${guardMs} ms: it was stopped.`, 'timeout');
      }
      const message = error instanceof Error ? error.message : String(error);
      if (/queue is at limit/i.test(message)) throw new OffLoopRetry('The render queue is full.', 'busy');
      if (/terminated|exited|worker.*(died|stopped)/i.test(message)) {
        throw new OffLoopRetry(`The worker stopped: ${message}`, 'crashed');
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

let settings: OffLoopSettings = DEFAULT_OFF_LOOP;
let pool: OffLoopPool | null = null;

/** The process's pool, started on first use with the last settings given. */
export function offLoop(): OffLoopPool {
  pool ??= new OffLoopPool(settings);
  return pool;
}

/**
 * Settings for the pool (config.ts). A pool running with other settings is left to finish its tasks
 * (its idle threads stop by themselves) and a new one starts on the next task.
 */
export function configureOffLoop(given: OffLoopSettings): void {
  if (JSON.stringify(given) === JSON.stringify(settings)) return;
  settings = given;
  pool = null;
}
