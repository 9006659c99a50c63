// node --import tsx --test bench/lib.test.ts: a bench's own system takes none of a started system's ports.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APPS, GATEWAY } from '../scripts/topology.mjs';
import { benchSystemEnv } from './lib.ts';

test("every app's port, the sample applet's included, moves with BENCH_PORT_BASE", () => {
  const saved = process.env.BENCH_PORT_BASE;
  try {
    for (const base of [undefined, '4600']) {
      if (base === undefined) delete process.env.BENCH_PORT_BASE;
      else process.env.BENCH_PORT_BASE = base;
      const env = benchSystemEnv('/tmp/x');
      const started = new Set([...APPS.map((app) => app.port), GATEWAY.port]);
      for (const app of APPS) {
        const port = Number(env[app.portEnv]);
        assert.ok(Number.isInteger(port), `${app.portEnv} is set`);
        assert.ok(!started.has(port), `${app.portEnv} (${port}) is not a started system's port`);
      }
      const shift = Number(base ?? 3200) - 3000;
      assert.equal(env.APPLET_TOKEN_GATE_PORT, String(3006 + shift));
      assert.equal(env.GATEWAY_PORT, String(Number(base ?? 3200) + 1000));
      const ports = [...APPS.map((app) => env[app.portEnv]), env.GATEWAY_PORT];
      assert.equal(new Set(ports).size, ports.length, 'no two on one port');
    }
  } finally {
    if (saved === undefined) delete process.env.BENCH_PORT_BASE;
    else process.env.BENCH_PORT_BASE = saved;
  }
});
