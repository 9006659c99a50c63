// Finds pnpm, installing it with npm when missing (corepack cannot fetch it on these machines).
import { spawnSync } from 'node:child_process';

export const PNPM_VERSION = '10.34.9';

function works(cmd, args) {
  const r = spawnSync(cmd, [...args, '--version'], { stdio: 'ignore' });
  return r.status === 0;
}

/** Returns [command, prefixArgs] to run pnpm. */
export function pnpm() {
  if (works('pnpm', [])) return ['pnpm', []];
  console.log(`pnpm not found: installing pnpm@${PNPM_VERSION} with npm…`);
  const g = spawnSync('npm', ['install', '-g', `pnpm@${PNPM_VERSION}`], { stdio: 'inherit' });
  if (g.status === 0 && works('pnpm', [])) return ['pnpm', []];
  return ['npx', ['--yes', `pnpm@${PNPM_VERSION}`]];
}

export function runPnpm(args, options = {}) {
  const [cmd, pre] = pnpm();
  const r = spawnSync(cmd, [...pre, ...args], { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed (${r.status})`);
}
