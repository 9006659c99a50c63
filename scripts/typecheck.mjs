#!/usr/bin/env node
// `pnpm typecheck`: the browser packages as one program (tsconfig.browser.json), the gateway, e2e and
// benchmarks as another (tsconfig.node.json), and each sample applet on its own, side by side. Every
// program's errors are printed, and it fails when any program has one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const projects = [
  'tsconfig.browser.json',
  'tsconfig.node.json',
  ...fs.readdirSync(path.join(root, 'applets')).map((name) => `applets/${name}/tsconfig.json`),
];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: root });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      process.stdout.write(`${project}: ${code === 0 ? 'no errors' : 'errors'}\n${output}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(projects.map(check));
process.exit(results.every(Boolean) ? 0 : 1);
