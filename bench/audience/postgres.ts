// A throw-away PostgreSQL server for the audience benchmark (Debian's binaries, as
// scripts/pg-server.mjs starts them for the test suites), configured like a small production
// server rather than like a test server: fsync stays on, 1 GB of shared buffers, room for WAL.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Settings given to the server (printed with the figures). */
export const BENCH_PG_SETTINGS: Record<string, string> = {
  shared_buffers: '1GB',
  max_wal_size: '4GB',
  checkpoint_timeout: '30min',
  effective_cache_size: '4GB',
};

function bin(name: string): string {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = path.join(base, v, 'bin', name);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`${name} not found: install PostgreSQL (apt-get install postgresql) or set BENCH_DATABASE_URL`);
}

export interface BenchPostgres {
  url: string;
  stop(): void;
}

export function startBenchPostgres(port: number): BenchPostgres {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audience-bench-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' });
    else execFileSync(cmd, args, { stdio: 'ignore' });
  };
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run(bin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const settings = Object.entries(BENCH_PG_SETTINGS).map(([k, v]) => `-c ${k}=${v}`);
  const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', ...settings].join(' ');
  run(bin('pg_ctl'), ['-D', data, '-w', '-l', path.join(dir, 'log'), '-o', options, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(bin('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
