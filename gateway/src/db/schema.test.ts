// db/schema.ts gathers every schema file (src/<area>/schema.ts and db/shared-schema.ts), the same
// files drizzle-kit reads (drizzle.config.ts): a table left out would be missing from Drizzle's
// typed schema while its migration exists.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { it } from 'node:test';
import * as schema from './schema';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('gathers every export of every schema file', async () => {
  const files = fs
    .readdirSync(src, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'db' && fs.existsSync(path.join(src, d.name, 'schema.ts')))
    .map((d) => path.join(src, d.name, 'schema.ts'));
  files.push(path.join(src, 'db', 'shared-schema.ts'));
  const gathered: Record<string, unknown> = schema;
  for (const file of files) {
    const own = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(own)) {
      assert.equal(gathered[name], value, `${path.relative(src, file)}: ${name} is not in db/schema.ts`);
    }
  }
});
