// node:test files, each in a process of its own, a few at a time. A file's report (spec) is printed
// whole when it ends, so that reports of files run side by side do not interleave; its counts come
// from its TAP summary.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * @typedef {{ label: string; cwd: string; file: string; bundle?: string; env?: Record<string, string | undefined> }} TestFile
 * @typedef {{ passed: number; failed: number; failures: string[]; seconds: Map<string, number> }} PoolResult
 */

/** `# pass N` and `# fail N` of a TAP summary (0 when absent). */
export function tapCounts(text) {
  return {
    pass: Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0),
    fail: Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0),
  };
}

/**
 * Runs one file, stopping it after `timeoutMs` (a hang guard); resolves to its exit code and what it
 * printed. A file with a `bundle` (gateway/test/bundle.mjs) runs from it in plain node, any other with
 * `node --import tsx`.
 */
function runFile(job, tap, timeoutMs, slotEnv) {
  const env = { ...process.env, ...slotEnv, ...job.env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const args = [
    ...(job.bundle ? ['--enable-source-maps'] : ['--import', 'tsx']),
    `--test-timeout=${timeoutMs}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    job.bundle ?? job.file,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: job.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const guard = setTimeout(() => {
      output += `\n${job.label}: still running after ${timeoutMs / 1000} s, stopped\n`;
      child.kill('SIGKILL');
    }, timeoutMs + 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/**
 * Runs `files` in order, `concurrency` at a time. A file that exits with an error without a failed
 * test (it did not load, a hook failed, it hung) counts as one failure. `slotEnv(slot)`: environment
 * for the files run in one of the `concurrency` slots (ports of their own).
 *
 * @param {TestFile[]} files
 * `chains`: files that slot i runs first, `chains[i]` one after another, while the other slots start
 * on `files` (suites that must never run two of one chain at once, but may share the machine).
 *
 * @param {{ concurrency: number; tmp: string; timeoutMs: number; slotEnv?: (slot: number) => Record<string, string>; chains?: TestFile[][] }} options
 * @returns {Promise<PoolResult>}
 */
export async function runPool(files, { concurrency, tmp, timeoutMs, slotEnv = () => ({}), chains = [] }) {
  /** @type {PoolResult} */
  const result = { passed: 0, failed: 0, failures: [], seconds: new Map() };
  fs.mkdirSync(tmp, { recursive: true });
  // Slot i runs chains[i] one after another before it joins the others on `files`.
  const chained = chains.flat();
  const queue = [...chained, ...files];
  const chainStart = chains.map((_, i) => chains.slice(0, i).flat().length);
  const nextInChain = chains.map(() => 0);
  let next = chained.length;
  const take = (slot) => {
    const chain = chains[slot];
    if (chain && nextInChain[slot] < chain.length) return chainStart[slot] + nextInChain[slot]++;
    return next < queue.length ? next++ : null;
  };
  const worker = async (slot) => {
    for (let index = take(slot); index !== null; index = take(slot)) {
      const job = queue[index];
      const tap = path.join(tmp, `${index}-${job.label.replace(/\W+/g, '-')}.tap`);
      const started = performance.now();
      const { code, output } = await runFile(job, tap, timeoutMs, slotEnv(slot));
      const seconds = (performance.now() - started) / 1000;
      const counts = tapCounts(fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '');
      const failed = counts.fail + (code !== 0 && counts.fail === 0 ? 1 : 0);
      result.passed += counts.pass;
      result.failed += failed;
      result.seconds.set(job.label, seconds);
      if (failed > 0) result.failures.push(job.label);
      console.log(`\n--- ${job.label} (${seconds.toFixed(1)} s, ${counts.pass} passed, ${failed} failed)`);
      process.stdout.write(output);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, (_, slot) => worker(slot)));
  return result;
}
