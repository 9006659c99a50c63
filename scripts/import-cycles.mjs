#!/usr/bin/env node
// Fails when the modules under a folder import each other in a cycle (`pnpm run lint` runs it on
// gateway/src, where areas are walls: README, "Layout"). Imports are read and resolved with
// TypeScript's own parser and resolver (the folder's tsconfig). Counted: every static `import … from`
// and `export … from`, type-only ones too (`import type` loads nothing at run time, but a type cycle
// ties the areas together all the same). Not counted: dynamic `import()`, which runs after both
// modules have loaded.
//
// Usage: node scripts/import-cycles.mjs <folder>
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const folder = path.resolve(process.argv[2] ?? 'gateway/src');
const started = performance.now();

const CODE = /\.(ts|tsx|mts|js|mjs)$/;
const files = fs
  .readdirSync(folder, { recursive: true })
  .map((f) => path.join(folder, String(f)))
  .filter((f) => CODE.test(f) && !/\.d\.m?ts$/.test(f) && !f.split(path.sep).includes('node_modules'));

const configPath = ts.findConfigFile(folder, ts.sys.fileExists);
const { options } = configPath
  ? ts.parseJsonConfigFileContent(
      ts.readConfigFile(configPath, ts.sys.readFile).config,
      ts.sys,
      path.dirname(configPath),
    )
  : { options: {} };
const host = ts.createCompilerHost(options);
const cache = ts.createModuleResolutionCache(folder, (name) => name, options);

/** The files under `folder` that a file imports. */
function importsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out = new Set();
  for (const node of source.statements) {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
    if (!node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    const resolved = ts.resolveModuleName(node.moduleSpecifier.text, file, options, host, cache).resolvedModule;
    const target = resolved && path.resolve(resolved.resolvedFileName);
    if (target && target.startsWith(folder + path.sep) && !resolved.isExternalLibraryImport) out.add(target);
  }
  return [...out];
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

// Tarjan's strongly connected components: every component of more than one file (or a file importing
// itself) is a cycle.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function connect(v) {
  order.set(v, index);
  low.set(v, index);
  index += 1;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!order.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
  }
  if (low.get(v) === order.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  }
}
for (const f of files) if (!order.has(f)) connect(f);

/** One shortest cycle through `start` inside its component, for the message. */
function cycleThrough(start, members) {
  const inside = new Set(members);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const trail = [start];
        for (let u = v; u !== start; u = previous.get(u)) trail.splice(1, 0, u);
        return [...trail, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

const rel = (f) => path.relative(folder, f);
const ms = Math.round(performance.now() - started);
if (components.length === 0) {
  console.log(
    `import-cycles: ${files.length} modules under ${path.relative(process.cwd(), folder) || '.'}, no cycle (${ms} ms)`,
  );
} else {
  for (const component of components) {
    const sorted = component.map(rel).sort();
    console.error(`import cycle among ${component.length} files:\n  ${sorted.join('\n  ')}`);
    console.error(`  for example: ${cycleThrough(component.sort()[0], component).map(rel).join(' -> ')}\n`);
  }
  console.error(`import-cycles: ${components.length} cycle(s) under ${rel(folder) || folder} (${ms} ms)`);
  process.exitCode = 1;
}
