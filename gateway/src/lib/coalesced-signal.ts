/**
 * A running / idle signal, passed on only when it changes for good: "running" at once, "idle" only once
 * nothing has run for `idleMs`. A gateway answering many short requests (the session check answers from
 * memory) goes from running to idle and back at every request; told each time, the storage's
 * background work (db/storage.ts `requestsRunningSignal`) would get two messages per request, and
 * passing them on cost the gateway's thread more than answering (bench/README.md, "Figures behind rules in the code").
 */
export interface SignalTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  /** Milliseconds on a monotonic clock. */
  now: () => number;
}

const REAL_TIMERS: SignalTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  now: () => performance.now(),
};

export function coalescedSignal(
  send: (running: boolean) => void,
  idleMs: number,
  timers: SignalTimers = REAL_TIMERS,
): (running: boolean) => void {
  /** What `send` was last told; whether requests run now; when they last stopped running. */
  let told = false;
  let running = false;
  let stoppedAt = 0;
  let timer = false;
  const settle = () => {
    timer = false;
    if (running || !told) return;
    const left = stoppedAt + idleMs - timers.now();
    if (left > 0) {
      timer = true;
      timers.setTimeout(settle, left);
      return;
    }
    told = false;
    send(false);
  };
  return (now: boolean) => {
    running = now;
    if (now && !told) {
      told = true;
      send(true);
    } else if (!now) {
      stoppedAt = timers.now();
      if (told && !timer) {
        timer = true;
        timers.setTimeout(settle, idleMs);
      }
    }
  };
}
