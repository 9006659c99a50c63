import { useCallback, useEffect, useRef } from 'react';

/**
 * The timing of an autosave (the designer's and compose's): `schedule` saves a moment after the last
 * change; `flush` saves now; one save runs at a time, and a flush asked for during a save runs it
 * again right after (what changed meanwhile is saved too). Leaving the screen saves what is pending
 * at once. What a save does is the caller's `saveOnce` (true when it saved or had nothing to save).
 */
export function useDebouncedSave(saveOnce: () => Promise<boolean>, delayMs: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const again = useRef(false);

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  /** Save now (what is pending, or what changed during a save in flight); true when all is saved. */
  const flush = useCallback(async (): Promise<boolean> => {
    cancel();
    if (inFlight.current) {
      again.current = true;
      return inFlight.current;
    }
    const run = (async () => {
      let ok: boolean;
      do {
        again.current = false;
        ok = await saveOnce();
      } while (ok && again.current);
      return ok;
    })();
    inFlight.current = run;
    try {
      return await run;
    } finally {
      inFlight.current = null;
    }
  }, [cancel, saveOnce]);

  const schedule = useCallback(() => {
    cancel();
    timer.current = setTimeout(() => void flush(), delayMs);
  }, [cancel, delayMs, flush]);

  useEffect(
    () => () => {
      if (timer.current) void flush();
    },
    [flush],
  );

  return { flush, schedule, cancel };
}
