// Bad input gets a 4xx, never a 500 and never a dropped connection: every operation of the OpenAPI
// document (every route, path and query parameter, body field and key) is sent NUL bytes, lone
// surrogates, 1 MB strings, 10,000-deep nesting, wrong types, negative and huge numbers and empty
// bodies, as a tenant owner, as a platform admin and without a session; `/health` answers after.
// Deterministic: the cases come from the document and a seeded generator (FUZZ_SEED to change it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startGateway, type TestGateway } from '../../test/helpers';
import {
  casesFor,
  type FuzzCase,
  type Known,
  type OpenApiDocument,
  offDocumentCases,
  operations,
  seededRandom,
} from '../../test/fuzz-cases';

const SEED = Number(process.env.FUZZ_SEED ?? 20260515);
const COMBINATIONS = 6;

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent' });
});
after(() => gw.close());

interface Outcome {
  status: number;
  /** Set when the connection ended without a whole answer. */
  dropped?: string;
  text: string;
}

async function send(c: FuzzCase, token: string | null): Promise<Outcome> {
  const headers: Record<string, string> = { ...c.headers };
  if (token && !headers.authorization) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(`${gw.url}${c.url}`, {
      method: c.method,
      headers,
      body: c.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { status: 0, dropped: `${String(error)}${cause}`, text: '' };
  }
}

async function json<T>(path: string, token: string | null, body?: unknown, method?: string): Promise<T> {
  const r = await gw.request<T>(path, { token, body, method });
  assert.ok(r.status < 300, `${method ?? (body === undefined ? 'GET' : 'POST')} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

/** Real resources, so that plausible requests reach the handlers and the stores behind the checks. */
async function knownValues(owner: string, admin: string): Promise<Known> {
  const list = await json<{ _id: string }>('/v1/lists', owner, { name: 'Fuzz list' });
  const target = await json<{ _id: string }>('/v1/lists', owner, { name: 'Fuzz widget list' });
  const contact = await json<{ _id: string }>('/v1/contacts', owner, {
    email: 'fuzz-contact@example.test',
    lists: [list._id],
  });
  const attribute = await json<{ _id: string }>('/v1/custom-attributes', owner, {
    name: 'Fuzz tier',
    key: 'fuzz_tier',
    type: 'text',
  });
  const rule = { combinator: 'and', rules: [{ field: 'email', operator: 'beginsWith', value: 'f' }] };
  const segment = await json<{ _id: string }>('/v1/segments', owner, { name: 'Fuzz segment', rule });
  const community = await json<{ _id: string }>('/v1/communities/my-community', owner);
  const widget = await json<{ _id: string }>('/v1/widgets', owner, {
    type: 'Subscription Widget',
    target_id: target._id,
    url: 'https://fuzz.example.test',
  });
  const upload = await gw.request<{ _id: string }>('/v1/imports?fileName=fuzz.csv', {
    token: owner,
    rawBody: 'email\nfuzz-import@example.test\n',
    contentType: 'text/csv',
  });
  assert.equal(upload.status, 201, upload.text);
  const plans = await json<{ records: { _id: string }[] }>('/v1/plans', admin);
  const billing = await json<{ priceId: string }>('/v1/billing', owner);
  const checkout = await json<{ session_id: string }>('/v1/checkout', null, {
    price_id: billing.priceId,
    tenant_name: 'Fuzz DAO',
    first_name: 'Fuzz',
    last_name: 'Owner',
    email: 'fuzz-checkout@example.test',
    password: 'fuzz-password-2026',
  });
  const image = await json<{ fileKey: string }>('/v1/files/s3-presigned-url', owner, { type: 'image/png' });
  const me = await json<{ user: { _id: string } }>('/v1/auth/verify', null, { token: owner });
  return {
    ids: {
      '/v1/contacts': contact._id,
      '/v1/lists': list._id,
      '/v1/custom-attributes': attribute._id,
      '/v1/segments': segment._id,
      '/v1/communities': community._id,
      '/v1/widgets': widget._id,
      '/public/widgets': widget._id,
      '/v1/imports': upload.body._id,
      '/v1/plans': plans.records[0]?._id ?? 'x',
      '/v1/checkout': checkout.session_id,
      '/v1/billing/change-summary': billing.priceId,
      '/v1/billing/change': billing.priceId,
      '/files': image.fileKey,
    },
    fields: {
      email: 'fuzz@example.test',
      wallet: `0x${'a'.repeat(40)}`,
      listId: list._id,
      target_id: target._id,
      contacts: [contact._id],
      ids: [contact._id],
      mapping: ['email'],
      price_id: billing.priceId,
      user_id: me.user._id,
      rule,
      password: 'fuzz-password-2026',
      url: 'https://fuzz.example.test',
      return_url: gw.config.consoleOrigins[0],
      type: 'image/png',
      key: 'fuzz_key',
      slug: 'fuzz-slug',
      fileName: 'fuzz.csv',
      token: owner,
    },
  };
}

describe('fuzz: every operation of the OpenAPI document', () => {
  it('answers hostile input with 4xx: no 5xx, no dropped connection, /health after', async () => {
    const doc = (await gw.get<OpenApiDocument>('/docs/json')).body;
    const owner = await gw.login('acmeOwner');
    const admin = await gw.login('admin');
    const known = await knownValues(owner, admin);
    const who: { name: string; token: string | null; spare: string | null }[] = [
      { name: 'unauthenticated', token: null, spare: null },
      { name: 'platform admin', token: admin, spare: await gw.login('admin') },
      { name: 'tenant owner', token: owner, spare: await gw.login('acmeOwner') },
    ];
    // Deletions last, so the other operations meet the real resources.
    const ops = operations(doc).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const random = seededRandom(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    const started = Date.now();
    const record = (caller: string, c: FuzzCase, outcome: Outcome) => {
      requests++;
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.dropped || outcome.status >= 500) {
        const what = outcome.dropped ?? `${outcome.status} ${outcome.text.slice(0, 120)}`;
        failures.push(`${caller}: ${c.method} ${c.url.slice(0, 100)} [${c.label}] → ${what}`);
      }
    };
    const slow: string[] = [];
    for (const op of ops) {
      const opStarted = Date.now();
      // The first caller let in walks everything; the others a NUL and a lone surrogate everywhere.
      let walked = false;
      for (const caller of [...who].reverse()) {
        // Signing out ends the token: that route gets a token of its own.
        const token = op.path === '/v1/auth/logout' ? caller.spare : caller.token;
        const level = walked ? 'light' : 'full';
        const planned = casesFor(doc, op, known, { level, random, combinations: COMBINATIONS });
        const first = planned[0];
        assert.ok(first);
        const plausible = await send(first, token);
        // The guards refuse before the input is read: a few cases show it.
        const refused = plausible.status === 401 || plausible.status === 403;
        if (!refused) walked = true;
        const cases = refused ? casesFor(doc, op, known, { level: 'refused', random, combinations: 0 }) : planned;
        for (const [i, c] of cases.entries()) record(caller.name, c, i === 0 ? plausible : await send(c, token));
      }
      if (process.env.FUZZ_TIMES) slow.push(`${Date.now() - opStarted} ms ${op.method} ${op.path}`);
    }
    if (slow.length)
      console.log(
        slow
          .sort((a, b) => parseInt(b) - parseInt(a))
          .slice(0, 15)
          .join('\n'),
      );
    for (const c of offDocumentCases(known)) {
      for (const caller of who) record(caller.name, c, await send(c, caller.token));
    }
    const health = await gw.get<{ ok: boolean }>('/health');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${requests} requests on ${ops.length} operations (seed ${SEED}) in ${seconds} s; statuses ${JSON.stringify(
        Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      )}; ${failures.length} failures`,
    );
    for (const failure of failures.slice(0, 200)) console.log(failure);
    assert.deepEqual(failures, []);
    assert.equal(health.status, 200);
    assert.equal(health.body.ok, true);
  });
});
