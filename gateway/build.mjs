#!/usr/bin/env node
/**
 * The gateway's production build: `src/main.ts` (the API server), `src/workers.ts` (the job workers'
 * process), `src/db/pglite-thread-worker.mjs` (embedded PGlite's thread) and
 * `src/off-loop-worker.ts` (a thread of the render and signing pool), and `src/demo-chain/demo-chain-main.ts`
 * (`npm start`'s local chain) bundled by esbuild into
 * `dist/<name>.mjs`, with the workspace's `@console/shared` inside and every npm package left to
 * node_modules. A process started from the bundle does not load TypeScript: tsx's loader runs in a
 * thread of its own (Node 20 module hooks) and keeps every compiled file in a gateway's resident memory
 * (bench/README.md, "The gateway runs from its bundle"). Linked source maps are written beside the
 * bundles (`node --enable-source-maps` shows TypeScript lines in stacks).
 *
 * `node build.mjs` builds; launch.mjs runs it before it starts a gateway.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { externalPackages } from './esbuild-externals.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Builds dist/. Each file is written whole and renamed into place, and only when it changed: a gateway
 * starting meanwhile from dist/ (another test's, another benchmark's) never reads half a file.
 */
async function buildGateway() {
  const result = await build({
    write: false,
    absWorkingDir: root,
    entryPoints: [
      'src/main.ts',
      'src/workers.ts',
      'src/db/pglite-thread-worker.mjs',
      'src/off-loop-worker.ts',
      'src/demo-chain/demo-chain-main.ts',
    ],
    outdir: 'dist',
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  for (const file of result.outputFiles) {
    if (fs.existsSync(file.path) && Buffer.from(file.contents).equals(fs.readFileSync(file.path))) continue;
    const tmp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, file.contents);
    fs.renameSync(tmp, file.path);
  }
}

await buildGateway();
