/**
 * @jest-environment node
 *
 * The bundle boundaries are lint rules (eslint.config.mjs, "Module Federation boundaries"): planted
 * imports that cross them fail the lint, and an allowed import passes. ESLint runs as the CI runs it,
 * on a virtual file named where the import would live.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function lint(file: string, source: string): { ok: boolean; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file],
    { cwd: root, input: source, encoding: 'utf8' },
  );
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

describe('bundle boundaries', () => {
  it("passes a gateway area using another area's index", () => {
    const allowed = lint(
      'gateway/src/billing/planted.ts',
      "import { normaliseEmail } from '../audience/index';\nexport { normaliseEmail };\n",
    );
    expect(allowed).toEqual({ ok: true, output: '' });
  });

  it('passes an allowed import (a remote using shared entry points)', () => {
    const allowed = lint(
      'mfe-account/src/planted.ts',
      "import { api } from '@console/shared/api';\nimport { Link } from '@console/shared/router';\nexport { api, Link };\n",
    );
    expect(allowed).toEqual({ ok: true, output: '' });
  });

  it.each([
    ['a remote importing another remote', 'mfe-account/src/planted.ts', "import { x } from '../../mfe-admin/src/x';"],
    ['a remote importing the shell', 'mfe-engagement/src/planted.ts', "import { x } from '../../shell/src/upgrade';"],
    ['the shell importing a remote', 'shell/src/planted.ts', "import { x } from '../../mfe-account/src/x';"],
    ['shared importing an app', 'shared/src/ui/planted.ts', "import { x } from '../../../shell/src/upgrade';"],
    ['the root of @console/shared', 'mfe-admin/src/planted.ts', "import { x } from '@console/shared';"],
    ['react-router-dom directly', 'mfe-onboarding/src/planted.ts', "import { Link as x } from 'react-router-dom';"],
    [
      "a gateway area reaching into another area's files",
      'gateway/src/billing/planted.ts',
      "import { normaliseEmail as x } from '../audience/contacts/contact-fields';",
    ],
  ])('fails on %s', (_what, file, line) => {
    const result = lint(file, `${line}\nexport { x };\n`);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/no-restricted-imports/);
  });
});
