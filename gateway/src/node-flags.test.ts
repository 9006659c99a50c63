// Every gateway process runs with the Node flags of node-flags.json: scripts/system.mjs and the test
// processes read the file; the package's start and workers scripts, which cannot, must repeat them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

it("the package's start and workers scripts give node every flag of node-flags.json", () => {
  const { flags } = read('node-flags.json') as { flags: string[] };
  const { scripts } = read('package.json') as { scripts: Record<string, string> };
  assert.ok(flags.length > 0);
  for (const name of ['start', 'workers']) {
    const words = (scripts[name] ?? '').split(/\s+/);
    assert.equal(words[0], 'node', `${name} runs node itself`);
    for (const flag of flags) assert.ok(words.includes(flag), `${name} has ${flag}`);
  }
});
