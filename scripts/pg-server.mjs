// A throw-away PostgreSQL server (Debian's binaries) for the test suites: initdb into a temp dir,
// start on a loopback port with trust auth, stop and delete afterwards. Runs as the postgres user
// when we are root (postgres refuses to run as root).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function bin(name) {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = path.join(base, v, 'bin', name);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`${name} not found: install PostgreSQL (apt-get install postgresql)`);
}

export function startPostgres(port = 5439) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) => {
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' });
    else execFileSync(cmd, args, { stdio: 'ignore' });
  };
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run(bin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  run(bin('pg_ctl'), [
    '-D',
    data,
    '-w',
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
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
