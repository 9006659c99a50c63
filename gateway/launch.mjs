/**
 * How every gateway process is started: by `npm start` and the e2e suites (scripts/system.mjs), by the
 * gateway's process tests and the benchmarks (test/processes.ts). Node runs with the flags of
 * node-flags.json and the production bundle in dist/ (build.mjs), built again first (under a second,
 * once per launching process) so that it is never older than the source. A TypeScript file (a test
 * fixture) runs through tsx instead.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The gateway package's folder (the processes' working directory). */
export const GATEWAY_DIR = path.dirname(fileURLToPath(import.meta.url));

/** @type {string[]} The gateway's Node flags (node-flags.json says why). */
export const GATEWAY_NODE_FLAGS = JSON.parse(fs.readFileSync(path.join(GATEWAY_DIR, 'node-flags.json'), 'utf8')).flags;

/**
 * Built already by this process, or by the one that started it: `npm test` builds once before the suites
 * that launch gateways side by side (GATEWAY_BUILT=1), so that no process starts from a bundle another
 * is rewriting.
 */
let built = process.env.GATEWAY_BUILT === '1';

/**
 * Node's arguments for a gateway process: `main` (the API server, with the job runner), `workers`
 * (the job workers alone), or a TypeScript file relative to gateway/.
 * @param {'main' | 'workers' | `${string}.ts`} entry
 * @param {string[]} [extraFlags] more Node flags (a CPU profile)
 * @returns {string[]}
 */
export function gatewayArgs(entry, extraFlags = []) {
  if (entry.endsWith('.ts')) return [...GATEWAY_NODE_FLAGS, ...extraFlags, '--import', 'tsx', entry];
  if (!built) {
    const run = spawnSync(process.execPath, ['build.mjs'], {
      cwd: GATEWAY_DIR,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (run.status !== 0) throw new Error(`the gateway's build failed (exit ${run.status})`);
    built = true;
  }
  return [...GATEWAY_NODE_FLAGS, ...extraFlags, path.join('dist', `${entry}.mjs`)];
}
