/**
 * Every entry point of @console/shared is a Module Federation singleton of its own (shared/mf/index.cjs).
 * A module reached from two entries by relative imports would be bundled, and evaluated, twice: two
 * session stores, two toasters. So: an entry imports another only by its package name, each source file
 * belongs to exactly one entry, and there is no root barrel.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, string> };
const entries = Object.entries(pkg.exports).filter(([, file]) => /\.tsx?$/.test(file));

/** Relative imports that are evaluated (type-only imports are erased). */
function relativeImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /(?:^|\n)\s*(import|export)(\s+type)?\s+(?:[^'"]*?\s+from\s+)?'(\.\.?\/[^']+)'/g;
  for (const m of src.matchAll(re)) if (!m[2]) out.push(m[3]!);
  // Dynamic imports, with or without a webpack magic comment (`import(/* webpackChunkName: "x" */ './x')`).
  for (const m of src.matchAll(/import\(\s*(?:\/\*[\s\S]*?\*\/\s*)?'(\.\.?\/[^']+)'\s*\)/g)) out.push(m[1]!);
  return out;
}

function resolve(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  const hit = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find(
    (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
  );
  if (!hit) throw new Error(`${path.relative(root, from)}: cannot resolve ${spec}`);
  return hit;
}

function filesOf(entryFile: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of relativeImports(file)) visit(resolve(file, spec));
  };
  visit(entryFile);
  return seen;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('@console/shared entry points', () => {
  const homes = new Map<string, string[]>();
  for (const [key, file] of entries) {
    for (const f of filesOf(path.join(root, file))) homes.set(f, [...(homes.get(f) ?? []), key]);
  }

  it('has no root barrel: every import names an entry', () => {
    expect(pkg.exports['.']).toBeUndefined();
    expect(entries.length).toBeGreaterThanOrEqual(10);
  });

  it('gives each source file exactly one entry (no module is bundled into two singletons)', () => {
    const shared = [...homes]
      .filter(([, keys]) => keys.length > 1)
      .map(([f, keys]) => `${path.relative(root, f)}: ${keys}`);
    expect(shared).toEqual([]);
    const orphans = sourceFiles(path.join(root, 'src'))
      .filter((f) => !homes.has(f))
      .map((f) => path.relative(root, f));
    expect(orphans).toEqual([]);
  });

  it('keeps the session core free of the UI kit, overlays, HTML sanitiser, grids, TanStack Query and the password rule', () => {
    const core = ['./config', './access', './contracts/core', './api', './session'];
    for (const key of core) {
      for (const f of filesOf(path.join(root, pkg.exports[key]!))) {
        const src = fs.readFileSync(f, 'utf8');
        expect({
          file: path.relative(root, f),
          heavy:
            /from '(@floating-ui|dompurify|@tanstack|@zxcvbn-ts\/[\w-]+|@console\/shared\/(ui|overlays|html|lists|query|contracts|passwords|password-meter)')/.exec(
              src,
            )?.[1] ?? null,
        }).toEqual({
          file: path.relative(root, f),
          heavy: null,
        });
      }
    }
  });
});
