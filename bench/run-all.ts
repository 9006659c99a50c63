// pnpm bench: starts the system on its own ports and a fresh database, prints every figure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSystem } from '../scripts/system.mjs';
import { launch } from '../e2e/lib/browser.ts';
import { shellCost } from './shell-cost.ts';
import { coldLoad } from './cold-load.ts';
import { designerCost } from './designer-cost.ts';
import { gatewayRps } from './gateway-rps.ts';
import { fairnessBench } from './fairness.ts';
import { gridBench } from './audience/grid.ts';
import { jobsBench } from './jobs.ts';
import { templatesBench } from './templates.ts';
import { benchSystemEnv } from './lib.ts';
import { stallBench } from './stall.ts';

const env = benchSystemEnv(fs.mkdtempSync(path.join(os.tmpdir(), 'console-bench-')));
process.env.BENCH_GATEWAY_PORT = env.GATEWAY_PORT;
const system = await startSystem(env);
const browser = await launch();
try {
  console.log(`\n## Shell cost (${new Date().toISOString()})\n${await shellCost(browser, system.urls.shell)}`);
  console.log(
    `\n## Cold load in headless Chromium\n${await coldLoad(browser, system.urls.shell, system.urls.gateway)}`,
  );
  console.log(
    `\n## Template designer route (JS on the wire)\n${await designerCost(browser, system.urls.shell, system.urls.gateway)}`,
  );
  console.log(`\n## Gateway throughput\n${await gatewayRps(system.urls.gateway)}`);
  console.log(`\n## Fairness under 200 connections\n${await fairnessBench(system.urls.gateway)}`);
  console.log(`\n## Job runner (pg-boss)\n${await jobsBench()}`);
  console.log(`\n## Templates renderer (newsletter starter)\n${await templatesBench()}`);
  try {
    console.log(
      `\n## Contacts grid, 500 rows per page\n${await gridBench(browser, system.urls.shell, system.urls.gateway)}`,
    );
  } catch (error) {
    console.log(
      `\n## Contacts grid, 500 rows per page\nnot measured: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
} finally {
  await browser.close();
  await system.stop();
}
// After the system has stopped: it starts a gateway of its own on the same port.
console.log(`\n## One tenant's weight on the others (embedded PGlite)\n${await stallBench()}`);
