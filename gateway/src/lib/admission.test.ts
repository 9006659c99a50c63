// Admission control over real HTTP, on a small app whose handlers wait until the test lets them
// finish: saturation answers 503 with Retry-After instead of holding the connection, lanes take
// turns, and a turn ends only when its work has ended.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AdmissionConfig } from '../config';
import { type AdmissionState, BUSY_MESSAGE, installAdmission } from './admission';

interface Harness {
  url: string;
  state: AdmissionState;
  /** Request ids in the order their handlers started. */
  started: string[];
  /** Request ids whose response was closed (answered, or the client went away). */
  closed: Set<string>;
  /** What `onRunning` was told, in order. */
  running: boolean[];
  /** Lets the handler of `id` answer (it waits until then). */
  finish(id: string): void;
  app: FastifyInstance;
}

let current: Harness | null = null;
afterEach(async () => {
  if (!current) return;
  for (const id of current.started) current.finish(id);
  await current.app.close();
  current = null;
});

async function harness(limits: Partial<AdmissionConfig>): Promise<Harness> {
  const config: AdmissionConfig = {
    concurrency: 1,
    laneConcurrency: 1,
    laneQueue: 10,
    queue: 100,
    maxWaitMs: 60_000,
    sharedConcurrency: 4,
    sharedLaneConcurrency: 3,
    ...limits,
  };
  const app = Fastify();
  const gates = new Map<string, () => void>();
  const early = new Set<string>();
  const started: string[] = [];
  const closed = new Set<string>();
  app.addHook('onRequest', (req, reply, done) => {
    const id = req.url.split('/').pop() ?? '';
    reply.raw.on('close', () => closed.add(id));
    done();
  });
  const running: boolean[] = [];
  const state = installAdmission(app, config, {
    lane: (req) => String(req.headers['x-lane'] ?? 'none'),
    onRunning: (r) => running.push(r),
  });
  app.get<{ Params: { id: string } }>('/work/:id', async (req) => {
    const { id } = req.params;
    started.push(id);
    if (!early.has(id)) await new Promise<void>((resolve) => gates.set(id, resolve));
    return { id };
  });
  app.get<{ Params: { id: string } }>('/shared/:id', { config: { admission: 'shared' } }, async (req) => {
    const { id } = req.params;
    started.push(id);
    if (!early.has(id)) await new Promise<void>((resolve) => gates.set(id, resolve));
    return { id };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const h: Harness = {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    state,
    started,
    closed,
    running,
    app,
    finish(id) {
      const open = gates.get(id);
      if (open) open();
      else early.add(id);
    },
  };
  current = h;
  return h;
}

function send(h: Harness, lane: string, id: string, signal?: AbortSignal) {
  return fetch(`${h.url}/work/${id}`, { headers: { 'x-lane': lane }, signal });
}

function sendShared(h: Harness, lane: string, id: string) {
  return fetch(`${h.url}/shared/${id}`, { headers: { 'x-lane': lane } });
}

/** Waits (without a time limit of its own: the test runner's applies) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('admission', () => {
  it('a saturated lane answers 503 with Retry-After at once; the waiting ones run in order of arrival', async () => {
    const h = await harness({ concurrency: 1, laneQueue: 2 });
    const a1 = send(h, 'a', 'a1');
    await until(() => h.started.length === 1);
    const a2 = send(h, 'a', 'a2');
    await until(() => h.state.queued === 1);
    const a3 = send(h, 'a', 'a3');
    await until(() => h.state.queued === 2);

    // a1 still holds the only turn: a4 is refused at once, not held.
    const a4 = await send(h, 'a', 'a4');
    assert.equal(a4.status, 503);
    assert.equal(a4.headers.get('retry-after'), '60');
    assert.deepEqual(await a4.json(), { message: BUSY_MESSAGE });
    assert.deepEqual(h.started, ['a1']);

    h.finish('a1');
    h.finish('a2');
    h.finish('a3');
    for (const r of await Promise.all([a1, a2, a3])) assert.equal(r.status, 200);
    assert.deepEqual(h.started, ['a1', 'a2', 'a3']);
    assert.deepEqual({ running: h.state.running, queued: h.state.queued }, { running: 0, queued: 0 });
  });

  it("a route whose work is shared takes turns in its own wider lanes, beside the other routes' turns", async () => {
    const h = await harness({ concurrency: 1, laneConcurrency: 1 });
    const a1 = send(h, 'a', 'a1');
    await until(() => h.started.length === 1);
    // The general turn is taken; lane a's shared requests still run, three at once (its shared lane).
    const shared = ['s1', 's2', 's3', 's4'].map((id) => sendShared(h, 'a', id));
    await until(() => h.started.length === 4 && h.state.queued === 1);
    assert.deepEqual(h.started.slice(1).sort(), ['s1', 's2', 's3']);
    assert.equal(h.state.running, 4);
    for (const id of ['s1', 's2', 's3']) h.finish(id);
    await until(() => h.started.includes('s4'));
    h.finish('s4');
    for (const r of await Promise.all(shared)) assert.equal(r.status, 200);
    h.finish('a1');
    assert.equal((await a1).status, 200);
    assert.deepEqual({ running: h.state.running, queued: h.state.queued }, { running: 0, queued: 0 });
  });

  it('a request that waited too long is answered 503 while the turn it waited for is still taken', async () => {
    const h = await harness({ concurrency: 1, maxWaitMs: 50 });
    const a1 = send(h, 'a', 'a1');
    await until(() => h.started.length === 1);
    const a2 = await send(h, 'a', 'a2');
    assert.equal(a2.status, 503);
    assert.equal(a2.headers.get('retry-after'), '1');
    assert.deepEqual(h.started, ['a1'], 'a2 never ran');
    h.finish('a1');
    assert.equal((await a1).status, 200);
  });

  it("another lane's request runs at once while one lane's requests wait", async () => {
    const h = await harness({ concurrency: 2, laneConcurrency: 1 });
    const a = [send(h, 'a', 'a1')];
    await until(() => h.started.length === 1);
    for (const id of ['a2', 'a3', 'a4']) a.push(send(h, 'a', id));
    await until(() => h.state.queued === 3);
    // b has room (2 in all, 1 per lane): it runs at once although a has three waiting.
    const b1 = send(h, 'b', 'b1');
    await until(() => h.started.includes('b1'));
    h.finish('b1');
    assert.equal((await b1).status, 200);
    assert.deepEqual(h.started, ['a1', 'b1']);
    for (const id of ['a1', 'a2', 'a3', 'a4']) h.finish(id);
    for (const r of await Promise.all(a)) assert.equal(r.status, 200);
  });

  it('tells when requests start running and when none runs any more (a waiting one keeps it running)', async () => {
    const h = await harness({ concurrency: 2, laneConcurrency: 1 });
    const a1 = send(h, 'a', 'a1');
    await until(() => h.started.length === 1);
    assert.deepEqual(h.running, [true]);
    const b1 = send(h, 'b', 'b1');
    const a2 = send(h, 'a', 'a2');
    await until(() => h.started.includes('b1') && h.state.queued === 1);
    h.finish('a1');
    assert.equal((await a1).status, 200);
    await until(() => h.started.includes('a2'));
    h.finish('b1');
    h.finish('a2');
    for (const r of await Promise.all([b1, a2])) assert.equal(r.status, 200);
    await until(() => h.running.length === 2);
    assert.deepEqual(h.running, [true, false], 'told once each way while any request ran');
  });

  it("lanes take turns: a waiting request of another lane goes before a lane's later ones", async () => {
    const h = await harness({ concurrency: 1 });
    const all = [send(h, 'a', 'a1')];
    await until(() => h.started.length === 1);
    all.push(send(h, 'a', 'a2'));
    await until(() => h.state.queued === 1);
    all.push(send(h, 'a', 'a3'));
    await until(() => h.state.queued === 2);
    all.push(send(h, 'b', 'b1'));
    await until(() => h.state.queued === 3);
    for (const id of ['a1', 'a2', 'b1', 'a3']) h.finish(id);
    for (const r of await Promise.all(all)) assert.equal(r.status, 200);
    assert.deepEqual(h.started, ['a1', 'a2', 'b1', 'a3']);
  });

  it('a client that goes away while waiting gives up its turn; one that goes away while served keeps it until the work ends', async () => {
    const h = await harness({ concurrency: 1 });
    const a1 = new AbortController();
    const first = send(h, 'a', 'a1', a1.signal).catch(() => null);
    await until(() => h.started.length === 1);
    const a2 = new AbortController();
    const second = send(h, 'a', 'a2', a2.signal).catch(() => null);
    await until(() => h.state.queued === 1);
    const third = send(h, 'a', 'a3');
    await until(() => h.state.queued === 2);

    // a1's client leaves while its handler still works: the turn stays taken.
    a1.abort();
    a2.abort();
    await first;
    await second;
    await until(() => h.closed.has('a1') && h.closed.has('a2'));
    assert.equal(h.state.running, 1);
    assert.deepEqual(h.started, ['a1']);

    // a1's work ends: a2's client is gone, so a3 runs next.
    h.finish('a1');
    await until(() => h.started.length === 2);
    assert.deepEqual(h.started, ['a1', 'a3']);
    h.finish('a3');
    assert.equal((await third).status, 200);
    await until(() => h.state.running === 0);
  });

  it('does nothing when turned off (concurrency 0)', async () => {
    const h = await harness({ concurrency: 0 });
    const all = ['a1', 'a2', 'a3'].map((id) => send(h, 'a', id));
    await until(() => h.started.length === 3);
    for (const id of ['a1', 'a2', 'a3']) h.finish(id);
    for (const r of await Promise.all(all)) assert.equal(r.status, 200);
  });
});
