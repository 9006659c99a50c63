/**
 * esbuild's resolution for the gateway's bundles (build.mjs: dist/; scripts/bundle-gateway-tests.mjs: the
 * test files): npm packages stay in node_modules, found from the gateway's folder; the workspace's own
 * TypeScript (`@console/shared`) is bundled.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

const require = createRequire(path.join(root, 'package.json'));

/**
 * Whether Node's ESM resolution finds `specifier` from the gateway's folder (where dist/ runs): it maps
 * a path inside a package without "exports" to a file without checking that the file is there.
 */
function esmResolves(specifier) {
  try {
    const url = import.meta.resolve(specifier);
    return !url.startsWith('file:') || fs.statSync(fileURLToPath(url)).isFile();
  } catch {
    return false;
  }
}

/**
 * A package's file imported by path without its extension (`nodemailer/lib/mime-funcs`), which Node's
 * ESM resolution does not find: tsx resolved these the CommonJS way, so the bundle names the file
 * CommonJS resolution finds (`nodemailer/lib/mime-funcs/index.js`).
 */
function withFile(specifier) {
  if (esmResolves(specifier)) return specifier;
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  const file = require.resolve(specifier).split(path.sep).join('/');
  const at = file.lastIndexOf(`/node_modules/${name}/`);
  return at < 0 ? specifier : `${name}/${file.slice(at + `/node_modules/${name}/`.length)}`;
}

/** npm packages stay in node_modules; the workspace's own TypeScript (`@console/shared`) is bundled. */
export const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@console/')) return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      return { path: withFile(args.path), external: true };
    });
  },
};
