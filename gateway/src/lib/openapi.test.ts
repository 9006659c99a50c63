// The OpenAPI document at /docs/json is one that API clients' tools read: Redocly's recommended rules
// report no error, every operation has a unique operationId and states its security, and
// openapi-typescript generates a client whose types a small program compiles against.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startGateway, type TestGateway } from '../../test/helpers';
import { operationIdOf } from './openapi';

const require = createRequire(import.meta.url);

type Operation = { operationId?: string; security?: unknown[]; description?: string; 'x-scopes'?: string[] };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  servers?: unknown[];
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
};

let gw: TestGateway;
let text: string;
let doc: Document;
before(async () => {
  gw = await startGateway();
  const res = await fetch(`${gw.url}/docs/json`);
  assert.equal(res.status, 200);
  text = await res.text();
  doc = JSON.parse(text) as Document;
});
after(() => gw.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${p}`, op })),
  );

describe('the OpenAPI document', () => {
  it('passes Redocly’s recommended rules without an error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
    assert.deepEqual(errors, []);
  });

  it('gives every operation a unique operationId and its security, and names a server', () => {
    const ops = operations();
    assert.ok(ops.length > 100, `${ops.length} operations`);
    const ids = new Map<string, string>();
    for (const { where, op } of ops) {
      assert.ok(op.operationId, `${where} has no operationId`);
      assert.ok(!ids.has(op.operationId), `${where} and ${ids.get(op.operationId)} share ${op.operationId}`);
      ids.set(op.operationId, where);
      assert.ok(Array.isArray(op.security), `${where} states no security`);
    }
    assert.equal(doc.paths['/v1/auth/login']?.post?.security?.length, 0);
    assert.deepEqual(doc.paths['/v1/contacts']?.get?.security, [{ bearerAuth: [] }, { apiKey: [] }]);
    assert.ok(doc.servers?.length);
  });

  it('documents API keys: the scheme, and on each session operation the scopes that may call it', () => {
    assert.deepEqual(doc.components?.securitySchemes?.apiKey, {
      ...doc.components?.securitySchemes?.apiKey,
      type: 'http',
      scheme: 'bearer',
    });
    const contacts = doc.paths['/v1/contacts']?.get;
    assert.deepEqual(contacts?.['x-scopes'], ['full', 'contacts']);
    assert.match(contacts?.description ?? '', /API keys of scope full, contacts may call this\./);
    assert.deepEqual(doc.paths['/v1/templates']?.get?.['x-scopes'], ['full']);
    // Key management, the profile and admin routes: sessions only, and said so.
    for (const [p, method] of [
      ['/v1/api-keys', 'post'],
      ['/v1/profile', 'get'],
      ['/v1/tenants', 'get'],
    ] as const) {
      const op = doc.paths[p]?.[method];
      assert.deepEqual(op?.security, [{ bearerAuth: [] }], `${method} ${p}`);
      assert.equal(op?.['x-scopes'], undefined);
      assert.match(op?.description ?? '', /API keys cannot call this\./, `${method} ${p}`);
    }
  });

  it('generates a typed client that a program compiles against', async () => {
    const types = astToString(await openapiTS(text));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-client-'));
    try {
      fs.writeFileSync(path.join(dir, 'api.d.ts'), types);
      const program = `
        import type { paths, components } from './api';
        type Page = paths['/v1/contacts']['get']['responses'][200]['content']['application/json'];
        type Query = NonNullable<paths['/v1/contacts']['get']['parameters']['query']>;
        type Login = paths['/v1/auth/login']['post']['requestBody'];
        type Rule = components['schemas']['SegmentGroup'];
        export function firstPage(page: Page): number { return page.records.length; }
        export const query: Query = { page: 1, perPage: 10 };
        export function rules(rule: Rule): number { return rule.rules.length; }
        export type { Login };
      `;
      fs.writeFileSync(path.join(dir, 'program.ts'), program);
      const compiled = ts.createProgram([path.join(dir, 'program.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
        typeRoots: [path.dirname(require.resolve('typescript/package.json'))],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(compiled)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      assert.deepEqual(diagnostics, []);
      // The program uses what the document says: a wrong field does not compile.
      fs.writeFileSync(path.join(dir, 'wrong.ts'), `${program}\nexport const wrong: Query = { pages: 1 };\n`);
      const wrong = ts.createProgram([path.join(dir, 'wrong.ts')], compiled.getCompilerOptions());
      assert.ok(ts.getPreEmitDiagnostics(wrong).length > 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('operationIdOf', () => {
  it('writes the method and the path, parameters as By<Name>, without the v1 prefix', () => {
    assert.equal(operationIdOf('GET', '/v1/contacts'), 'getContacts');
    assert.equal(operationIdOf('PATCH', '/v1/contacts/{id}'), 'patchContactsById');
    assert.equal(operationIdOf('POST', '/v1/auth/sign-in-link'), 'postAuthSignInLink');
    assert.equal(operationIdOf('POST', '/public/widgets/{id}/signups'), 'postPublicWidgetsByIdSignups');
    assert.equal(operationIdOf('GET', '/health'), 'getHealth');
  });
});
