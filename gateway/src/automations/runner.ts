/**
 * The automations runner (docs/automations.md, "Runtime"): where job workers run, a pass every
 * AUTOMATIONS_POLL_MS reads the trigger sources and advances the journeys that are due, in bounded
 * batches; a pass that found a full batch is followed by another at once (after yielding to the event
 * loop), so a burst drains without waiting for the poll. Every pass reads `now` from the clock it is
 * given, so the tests drive waits with a controllable clock.
 */
import type { Deps } from '../deps';
import { asBackgroundWork } from '../db/storage';
import { claimDue, runJourney } from './journeys';
import { drainOutbox, enterDates, evaluateSegments, readContractEvents, SOURCE_BATCH } from './sources';

/** Journeys claimed at once by one worker. */
export const CLAIM_BATCH = 100;
/** Claimed journeys run at the same time in one process. */
const CONCURRENCY = 4;

export interface PassResult {
  entered: number;
  journeys: number;
  steps: number;
  /** A batch came back full: more is waiting. */
  more: boolean;
}

/** One pass: the trigger sources, then one batch of due journeys. */
export async function runPass(deps: Deps, now: Date = deps.clock()): Promise<PassResult> {
  const outbox = await drainOutbox(deps, now);
  const events = await readContractEvents(deps, now);
  const segments = await evaluateSegments(deps, now);
  const dates = await enterDates(deps, now);
  const claimed = await claimDue(deps.db, now, CLAIM_BATCH, deps.config.automations.leaseSeconds);
  let steps = 0;
  let next = 0;
  const work = async () => {
    for (let i = next++; i < claimed.length; i = next++) {
      const taken = await runJourney(deps, claimed[i]!, now);
      steps += taken;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, work));
  return {
    entered: outbox + events + segments + dates,
    journeys: claimed.length,
    steps,
    more: claimed.length === CLAIM_BATCH || outbox === SOURCE_BATCH || events >= SOURCE_BATCH,
  };
}

/** Runs passes until nothing is due (at most `limit` passes): the tests' "let the runtime catch up". */
export async function runUntilIdle(deps: Deps, now: Date = deps.clock(), limit = 100): Promise<number> {
  let steps = 0;
  for (let i = 0; i < limit; i++) {
    const r = await runPass(deps, now);
    steps += r.steps;
    if (r.entered === 0 && r.journeys === 0) break;
  }
  return steps;
}

/** The poll loop of a worker process; `wake()` asks for a pass now (an API trigger just entered someone). */
export class AutomationsLoop {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: Deps,
    private readonly pollMs: number,
  ) {}

  start(signal: AbortSignal): void {
    signal.addEventListener('abort', () => this.stop(), { once: true });
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.running = true;
    let more = false;
    try {
      // A pass's statements give way to the console's requests, as jobs' do (db/storage.ts).
      more = (await asBackgroundWork(this.deps.db, () => runPass(this.deps))).more;
    } catch (error) {
      if (!this.stopped) this.deps.log.error({ err: error }, 'an automations pass failed');
    } finally {
      this.running = false;
    }
    const soon = more || this.again;
    this.again = false;
    this.schedule(soon ? 0 : this.pollMs);
  }
}
