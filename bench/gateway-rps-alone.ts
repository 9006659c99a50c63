// `pnpm --filter ./bench exec tsx gateway-rps-alone.ts`: the gateway throughput figures alone, on a
// gateway started on its own port (BENCH_GATEWAY_PORT, else BENCH_PORT_BASE + 1000 as in the whole bench,
// else 4210) with a fresh embedded database (or DATABASE_URL's server).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGateway } from '../scripts/system.mjs';
import { gatewayRps } from './gateway-rps.ts';

const port =
  process.env.BENCH_GATEWAY_PORT ??
  (process.env.BENCH_PORT_BASE ? String(Number(process.env.BENCH_PORT_BASE) + 1000) : '4210');
const url = `http://localhost:${port}`;
const gateway = startGateway({
  ...process.env,
  PORT: port,
  QUIET: '1',
  GATEWAY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'console-bench-')),
  LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
  LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
  API_KEY_RATE_LIMIT: '0',
});
try {
  for (let i = 0; ; i++) {
    if ((await fetch(`${url}/health`).catch(() => null))?.ok) break;
    if (i > 300) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`## Gateway throughput\n${await gatewayRps(url)}`);
} finally {
  gateway.kill('SIGTERM');
}
