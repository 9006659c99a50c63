import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairQueue, IDLE_LANES, type Admission, type FairQueueLimits } from './fair-queue';

/** One step and what it must give: an admission, the requests a release starts, the requests an expiry takes. */
type Step =
  | { admit: string; lane: string; at?: number; gives: Admission }
  | { release: string; starts: string[] }
  | { expire: number; takes: string[] }
  | { load: { running: number; queued: number } };

const LIMITS: FairQueueLimits = { concurrency: 2, laneConcurrency: 1, laneQueue: 3, queue: 5 };

/** Request ids are written `<lane><n>`: `a1` is the first request of lane `a`. */
const admit = (id: string, gives: Admission, at = 0): Step => ({ admit: id, lane: id.replace(/\d+$/, ''), at, gives });

const cases: { name: string; limits?: Partial<FairQueueLimits>; steps: Step[] }[] = [
  {
    name: 'a request runs at once while there is room in all and in its lane',
    steps: [admit('a1', 'run'), admit('b1', 'run'), { load: { running: 2, queued: 0 } }],
  },
  {
    name: 'a lane at its own limit waits even with room in all',
    steps: [admit('a1', 'run'), admit('a2', 'queued'), admit('b1', 'run'), { load: { running: 2, queued: 1 } }],
  },
  {
    name: 'a lane with room waits when the gateway is at its limit',
    limits: { laneConcurrency: 2 },
    steps: [admit('a1', 'run'), admit('a2', 'run'), admit('b1', 'queued')],
  },
  {
    name: 'a lane serves its requests in order of arrival',
    steps: [
      admit('a1', 'run'),
      admit('a2', 'queued'),
      admit('a3', 'queued'),
      admit('a4', 'queued'),
      { release: 'a', starts: ['a2'] },
      { release: 'a', starts: ['a3'] },
      { release: 'a', starts: ['a4'] },
      { release: 'a', starts: [] },
      { load: { running: 0, queued: 0 } },
    ],
  },
  {
    name: "a flooding lane's queue does not delay another lane by more than a turn",
    limits: { concurrency: 1, laneQueue: 10, queue: 10 },
    steps: [
      admit('a1', 'run'),
      admit('a2', 'queued'),
      admit('a3', 'queued'),
      admit('a4', 'queued'),
      admit('b1', 'queued'),
      admit('c1', 'queued'),
      admit('b2', 'queued'),
      // Lanes take turns in the order they started waiting: a, b, c, then a again...
      { release: 'a', starts: ['a2'] },
      { release: 'a', starts: ['b1'] },
      { release: 'b', starts: ['c1'] },
      { release: 'c', starts: ['a3'] },
      { release: 'a', starts: ['b2'] },
      { release: 'b', starts: ['a4'] },
      { release: 'a', starts: [] },
    ],
  },
  {
    name: 'a release starts the next lane with room, skipping lanes at their own limit',
    limits: { concurrency: 3, laneConcurrency: 1 },
    steps: [
      admit('a1', 'run'),
      admit('b1', 'run'),
      admit('c1', 'run'),
      admit('a2', 'queued'),
      admit('b2', 'queued'),
      // c's turn frees room in all, but a and b still run one each: nothing of theirs may start.
      { release: 'c', starts: [] },
      { release: 'b', starts: ['b2'] },
      { release: 'a', starts: ['a2'] },
    ],
  },
  {
    name: 'a full lane queue refuses at once; other lanes still queue',
    limits: { concurrency: 1, laneQueue: 2 },
    steps: [
      admit('a1', 'run'),
      admit('a2', 'queued'),
      admit('a3', 'queued'),
      admit('a4', 'full'),
      admit('b1', 'queued'),
      { load: { running: 1, queued: 3 } },
    ],
  },
  {
    name: 'a full gateway queue refuses every lane',
    limits: { concurrency: 1, laneQueue: 10, queue: 2 },
    steps: [admit('a1', 'run'), admit('a2', 'queued'), admit('b1', 'queued'), admit('c1', 'full'), admit('a3', 'full')],
  },
  {
    name: 'no queue at all: a request runs or is refused',
    limits: { concurrency: 1, laneQueue: 0 },
    steps: [
      admit('a1', 'run'),
      admit('a2', 'full'),
      admit('b1', 'full'),
      { release: 'a', starts: [] },
      admit('b2', 'run'),
    ],
  },
  {
    name: 'an expiry takes the requests that waited too long, oldest first, and leaves the others',
    limits: { concurrency: 1, laneQueue: 10 },
    steps: [
      admit('a1', 'run', 0),
      admit('a2', 'queued', 10),
      admit('b1', 'queued', 20),
      admit('a3', 'queued', 30),
      admit('b2', 'queued', 40),
      { expire: 25, takes: ['a2', 'b1'] },
      { load: { running: 1, queued: 2 } },
      { release: 'a', starts: ['a3'] },
      { expire: 100, takes: ['b2'] },
      { release: 'a', starts: [] },
      { load: { running: 0, queued: 0 } },
    ],
  },
  {
    name: 'a lane whose waiting requests all expired runs its next request at once',
    limits: { concurrency: 2, laneConcurrency: 1, laneQueue: 10 },
    steps: [admit('a1', 'run', 0), admit('a2', 'queued', 0), { expire: 1, takes: ['a2'] }, admit('b1', 'run', 2)],
  },
];

describe('FairQueue', () => {
  for (const { name, limits, steps } of cases) {
    it(name, () => {
      const queue = new FairQueue<string>({ ...LIMITS, ...limits });
      const loads = new Map<string, number>();
      steps.forEach((step, i) => {
        const where = `step ${i + 1}`;
        if ('admit' in step) {
          assert.equal(queue.admit(step.lane, step.admit, step.at ?? 0), step.gives, `${where}: admit ${step.admit}`);
          if (step.gives === 'run') loads.set(step.lane, (loads.get(step.lane) ?? 0) + 1);
        } else if ('release' in step) {
          assert.deepEqual(queue.release(step.release), step.starts, `${where}: release in ${step.release}`);
        } else if ('expire' in step) {
          assert.deepEqual(queue.expire(step.expire), step.takes, `${where}: expire before ${step.expire}`);
        } else {
          assert.deepEqual({ running: queue.running, queued: queue.queued }, step.load, where);
        }
      });
    });
  }

  it('a release in a lane with nothing running is a caller error', () => {
    const queue = new FairQueue<string>(LIMITS);
    assert.throws(() => queue.release('a'), /no running request in lane a/);
    queue.admit('a', 'a1', 0);
    queue.release('a');
    assert.throws(() => queue.release('a'), /no running request/);
  });

  it('forgets idle lanes beyond a few hundred (a flood of addresses leaves nothing behind)', () => {
    const queue = new FairQueue<string>({ ...LIMITS, concurrency: 1, laneQueue: 1, queue: 1 });
    queue.admit('a', 'a1', 0);
    queue.admit('x0', 'x0', 0); // waits
    for (let i = 1; i < 5000; i++) assert.equal(queue.admit(`x${i}`, `x${i}`, 0), 'full');
    assert.equal(queue.lanes, 2, 'the running lane and the one that waits; refused ones are not kept');
    queue.expire(1);
    queue.release('a');
    assert.equal(queue.lanes, 2, 'idle lanes are kept for their next request');
    for (let i = 0; i < 1000; i++) {
      queue.admit(`y${i}`, `y${i}`, 0);
      queue.release(`y${i}`);
    }
    assert.ok(queue.lanes <= IDLE_LANES + 1, `${queue.lanes} lanes kept`);
  });

  it('keeps order over many turns of a long queue', () => {
    const queue = new FairQueue<number>({ concurrency: 1, laneConcurrency: 1, laneQueue: 1000, queue: 1000 });
    assert.equal(queue.admit('a', 0, 0), 'run');
    for (let i = 1; i < 500; i++) assert.equal(queue.admit('a', i, i), 'queued');
    const order: number[] = [];
    for (let started = queue.release('a'); started.length > 0; started = queue.release('a')) order.push(...started);
    assert.deepEqual(
      order,
      Array.from({ length: 499 }, (_, i) => i + 1),
    );
  });
});
