/**
 * The gateway's test files bundled by esbuild, so that `npm test` runs each in plain `node`: under tsx,
 * every module a file imports (node_modules included) passes through the loader's thread (Node 20 module
 * hooks), which costs a file more than all its imports' own work (bench/README.md, "Gateway test files
 * run from a bundle"). The bundle is what the production build makes (build.mjs, esbuild-externals.mjs:
 * npm packages stay in node_modules), split into shared chunks, with one difference: `import.meta.url`,
 * `import.meta.dirname` and `import.meta.filename` keep naming the source file, as they do under tsx, so
 * paths the code finds beside itself (migrations, starters, fixtures) stay where they are.
 *
 * A file that imports a module by a computed name (`import(url)`) still needs tsx: `needsTsx` says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { externalPackages } from '../esbuild-externals.mjs';

const gatewayDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Whether a test file's source imports a module by a computed name, which only tsx resolves at run time. */
export function needsTsx(source) {
  return /\bimport\(\s*[^'"`\s)]/.test(source) || /\bimport\(\s*`[^`]*\$\{/.test(source);
}

/** `import.meta`'s paths of the workspace's own files, written as the source file's. */
const sourcePaths = {
  name: 'source-paths',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mts|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      const loader = /\.m?js$/.test(args.path) ? 'js' : /\.tsx$/.test(args.path) ? 'tsx' : 'ts';
      if (!text.includes('import.meta')) return { contents: text, loader };
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader };
    });
  },
};

/** The off-loop pool's thread (src/off-loop-worker.ts), bundled beside the tests: TEST_OFF_LOOP_WORKER names it. */
export const OFF_LOOP_WORKER_ENTRY = 'off-loop-worker';

/**
 * Bundles `files` (paths relative to gateway/) into `outdir` (inside gateway/, so that node_modules
 * resolve from it), with the off-loop pool's thread as `<outdir>/off-loop-worker.mjs`; resolves to each
 * file's bundle, by file.
 *
 * @param {string[]} files
 * @param {string} outdir
 * @returns {Promise<Map<string, string>>}
 */
export async function bundleTests(files, outdir) {
  fs.rmSync(outdir, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(files.map((file) => [file.replace(/\.ts$/, ''), path.join(gatewayDir, file)]));
  entryPoints[OFF_LOOP_WORKER_ENTRY] = path.join(gatewayDir, 'src', 'off-loop-worker.ts');
  await build({
    absWorkingDir: gatewayDir,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [externalPackages, sourcePaths],
  });
  return new Map(files.map((file) => [file, path.join(outdir, file.replace(/\.ts$/, '.mjs'))]));
}
