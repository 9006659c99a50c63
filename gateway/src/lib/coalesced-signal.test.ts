import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalescedSignal } from './coalesced-signal';

/** Timers run by hand: `elapse` fires those that are due. */
function manualTimers() {
  let now = 0;
  let due: { at: number; fn: () => void }[] = [];
  return {
    timers: { setTimeout: (fn: () => void, ms: number) => due.push({ at: now + ms, fn }), now: () => now },
    elapse(ms: number) {
      now += ms;
      const ready = due.filter((t) => t.at <= now);
      due = due.filter((t) => t.at > now);
      for (const t of ready) t.fn();
    },
    get pending() {
      return due.length;
    },
  };
}

describe('coalescedSignal', () => {
  it('passes "running" on at once and "idle" only after idleMs without running', () => {
    const sent: boolean[] = [];
    const clock = manualTimers();
    const signal = coalescedSignal((r) => sent.push(r), 2, clock.timers);
    signal(true);
    assert.deepEqual(sent, [true]);
    signal(false);
    clock.elapse(1);
    assert.deepEqual(sent, [true], 'not idle yet');
    clock.elapse(1);
    assert.deepEqual(sent, [true, false]);
  });

  it('sends two messages for a stretch of short requests, not two per request', () => {
    const sent: boolean[] = [];
    const clock = manualTimers();
    const signal = coalescedSignal((r) => sent.push(r), 2, clock.timers);
    // A request every 0.1 ms, each over before the next: the gaps are shorter than idleMs.
    for (let i = 0; i < 1000; i++) {
      signal(true);
      signal(false);
      clock.elapse(0.1);
    }
    assert.deepEqual(sent, [true]);
    assert.ok(clock.pending <= 1, 'one timer at a time');
    clock.elapse(2);
    assert.deepEqual(sent, [true, false]);
    signal(true);
    assert.deepEqual(sent, [true, false, true], 'running again after idle is told at once');
  });

  it('stays "running" while a request that started before the idle check still runs', () => {
    const sent: boolean[] = [];
    const clock = manualTimers();
    const signal = coalescedSignal((r) => sent.push(r), 2, clock.timers);
    signal(true);
    signal(false);
    signal(true);
    clock.elapse(5);
    assert.deepEqual(sent, [true]);
    signal(false);
    clock.elapse(2);
    assert.deepEqual(sent, [true, false]);
  });
});
