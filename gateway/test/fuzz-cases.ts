// Requests for the fuzz test (src/lib/fuzz.test.ts), made from the gateway's OpenAPI document: for every
// operation a plausible request (sample values from the schemas, real ids where the path names a
// resource), then that request with each path parameter, query parameter and body field replaced by
// hostile values, whole hostile bodies, hostile headers, and a few seeded random combinations.
// Pure: no I/O here.
import { seededRandom } from './seeded-random';

export { seededRandom };

/** A JSON Schema node as @fastify/swagger writes it (the subset the contracts produce). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minLength?: number;
  minItems?: number;
  minimum?: number;
  maximum?: number;
  $ref?: string;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Op {
  method: string;
  /** As in the document: `/v1/contacts/{id}`. */
  path: string;
  pathParams: string[];
  query: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body: JsonSchema | null;
}

export interface FuzzCase {
  op: Op;
  /** What was changed, for the report. */
  label: string;
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

/** A million characters: a "1 MB string" whose body still fits the gateway's 1 MiB body limit. */
const MEGA = 'x'.repeat(1_000_000);
const DEPTH = 10_000;

/** Raw JSON spliced in where a marker string stands (values JSON.stringify cannot write). */
const RAW_MARK = '\u0000raw:';
const raw = (json: string) => `${RAW_MARK}${json}`;
export const DEEP_ARRAYS = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
export const DEEP_OBJECTS = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

/** Values put in place of each body field: text PostgreSQL cannot store, sizes, wrong types, odd numbers, depth. */
export const BODY_VALUES: readonly unknown[] = [
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\u0001\u001f\u007f',
  '',
  MEGA,
  -1,
  0.5,
  2147483648,
  raw('1e999'),
  raw('-123456789012345678901234567890'),
  true,
  null,
  {},
  ['\u0000'],
  raw(DEEP_ARRAYS),
];
/** More, for the seeded combinations. */
const MORE_BODY_VALUES: readonly unknown[] = [
  '\u0000',
  ' ',
  0,
  -2147483649,
  raw('9007199254740993'),
  1e308,
  -1e308,
  raw('-1e999'),
  [],
  { '\u0000': 'x' },
  { '\ud800': 1 },
  Array.from({ length: 20_000 }, () => 1),
  raw(DEEP_OBJECTS),
];

/** Values for each query parameter (already encoded). */
export const QUERY_VALUES: readonly string[] = [
  'a%00b',
  '%ED%A0%80',
  '%FF',
  '%01%1F%7F',
  '%',
  'x'.repeat(10_000),
  '-1',
  '1e309',
  'NaN',
  '99999999999999999999',
  '%5B%5D',
];
const MORE_QUERY_VALUES: readonly string[] = ['%00', '', MEGA, '0', '1.5', '-1e309', 'true', '__proto__'];

/** Values for each path parameter (already encoded). */
export const PATH_VALUES: readonly string[] = [
  'a%00b',
  '00000000-0000-4000-8000-000000000000%00',
  '%ED%A0%80',
  '%FF',
  '%01',
  'x'.repeat(5_000),
  '-1',
  '99999999999999999999',
  '..%2F..%2Fhealth',
  "'%3B--",
  '00000000-0000-0000-0000-000000000000',
  '%F0%9F%92%A9',
];
const MORE_PATH_VALUES: readonly string[] = [
  '%00',
  '0',
  '1e309',
  'null',
  '%20',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/** Whole bodies, sent as JSON. */
export const WHOLE_BODIES: readonly { label: string; body?: string | Uint8Array<ArrayBuffer>; type?: string }[] = [
  { label: 'no body' },
  { label: 'empty JSON', body: '', type: 'application/json' },
  { label: 'null', body: 'null', type: 'application/json' },
  { label: 'array', body: '[]', type: 'application/json' },
  { label: 'string', body: '"\\u0000"', type: 'application/json' },
  { label: 'number', body: '1e999', type: 'application/json' },
  { label: `${DEPTH} nested arrays`, body: DEEP_ARRAYS, type: 'application/json' },
  { label: `${DEPTH} nested objects`, body: DEEP_OBJECTS, type: 'application/json' },
  { label: 'NUL key', body: '{"\\u0000":1}', type: 'application/json' },
  { label: 'lone surrogate key', body: '{"\\ud800":1}', type: 'application/json' },
  {
    label: 'invalid UTF-8',
    body: Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    type: 'application/json',
  },
  { label: 'prototype keys', body: '{"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
  {
    label: 'many keys',
    body: JSON.stringify(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, 1]))),
    type: 'application/json',
  },
  { label: 'form body', body: 'a=%00', type: 'application/x-www-form-urlencoded' },
  { label: 'UTF-16 JSON', body: '{}', type: 'application/json; charset=utf-16' },
];

/** Headers that reach the gateway's own parsing (the session check, billing's idempotency key). */
export const HEADER_VALUES: readonly { label: string; headers: Record<string, string> }[] = [
  { label: 'long Idempotency-Key', headers: { 'idempotency-key': 'k'.repeat(8_000) } },
  { label: 'latin-1 Idempotency-Key', headers: { 'idempotency-key': 'cl\u00e9\u00ff' } },
  { label: 'empty Idempotency-Key', headers: { 'idempotency-key': '' } },
  { label: 'long bearer', headers: { authorization: `Bearer ${'a'.repeat(8_000)}` } },
  { label: 'latin-1 bearer', headers: { authorization: 'Bearer \u00ff\u00fe' } },
  { label: 'bearer of dots', headers: { authorization: 'Bearer ...' } },
  { label: 'basic auth', headers: { authorization: 'Basic YTpi' } },
];

// ---------------------------------------------------------------------------------------------
// Sample (plausible) values
// ---------------------------------------------------------------------------------------------

export interface Known {
  /** A real id per path prefix (`/v1/contacts` → a contact of the tenant). */
  ids: Record<string, string>;
  /** Plausible values by field name (e-mails, wallets, list ids, price ids...). */
  fields: Record<string, unknown>;
}

export function operations(doc: OpenApiDocument): Op[] {
  const ops: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) {
    const name = s.$ref.replace('#/components/schemas/', '');
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

function typeOf(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  return s.type;
}

/** A value the schema accepts (or close to it), preferring known values by field name. */
export function sample(doc: OpenApiDocument, schema: JsonSchema, known: Known, name = '', depth = 0): unknown {
  const s = resolve(doc, schema);
  if (s.enum?.length) return s.enum[0];
  if (name in known.fields) return known.fields[name];
  const options = s.anyOf ?? s.oneOf;
  if (options) {
    const first = options.find((o) => resolve(doc, o).type !== 'null') ?? options[0];
    return first ? sample(doc, first, known, name, depth) : null;
  }
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const [key, prop] of Object.entries(s.properties ?? {})) out[key] = sample(doc, prop, known, key, depth + 1);
      return out;
    }
    case 'array': {
      const n = Math.min(Math.max(s.minItems ?? 1, 1), 5);
      if (depth > 6 || !s.items) return [];
      return Array.from({ length: n }, () => sample(doc, s.items ?? {}, known, name, depth + 1));
    }
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.minimum > -1e15 ? Math.max(s.minimum, Math.min(1, s.maximum ?? 1)) : 1;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (s.format === 'email') return 'fuzz@example.test';
      return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
    default:
      return s.default ?? 'x';
  }
}

/** Paths to every value inside a sample: object keys, and the first element of arrays. */
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length ? [prefix] : [];
  if (Array.isArray(value)) {
    if (value.length) out.push(...leafPaths(value[0], [...prefix, 0]));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...leafPaths(v, [...prefix, k]));
  }
  return out;
}

function withValue(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy: unknown = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    // An earlier change of a combination replaced a parent: this one has nowhere to go.
    if (!next || typeof next !== 'object') return copy;
    node = next as Record<string | number, unknown>;
  }
  const last = path.at(-1);
  if (last !== undefined) node[last] = value;
  return copy;
}

/** JSON with the raw markers spliced in. */
export function encodeBody(value: unknown): string {
  return JSON.stringify(value).replace(
    /"\\u0000raw:((?:[^"\\]|\\.)*)"/g,
    (_m, json: string) => JSON.parse(`"${json}"`) as string,
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string') {
    if (value.startsWith(RAW_MARK)) return value.slice(RAW_MARK.length, RAW_MARK.length + 12);
    if (value.length > 20) return `${value.length} chars`;
    return JSON.stringify(value);
  }
  if (Array.isArray(value) && value.length > 20) return `array of ${value.length}`;
  return JSON.stringify(value);
}

export interface CaseOptions {
  /**
   * `full`: every parameter, field and key with every hostile value; `light`: each of them with a NUL and a
   * lone surrogate; `refused`: a handful (callers the guards refuse before the input is read).
   */
  level: 'full' | 'light' | 'refused';
  random: () => number;
  /** Seeded random combinations per operation (several fields and parameters changed at once). */
  combinations: number;
}

/** The plausible request of an operation, then the hostile ones. */
export function casesFor(doc: OpenApiDocument, op: Op, known: Known, options: CaseOptions): FuzzCase[] {
  const prefix = op.path.split('/{')[0] ?? op.path;
  const pathValues: Record<string, string> = {};
  for (const name of op.pathParams) {
    const value = known.ids[`${prefix}:${name}`] ?? known.ids[prefix] ?? 'x';
    pathValues[name] = encodeURIComponent(value).replace(/%2F/g, '/');
  }
  const queryValues: Record<string, string> = {};
  for (const q of op.query) {
    if (!q.required && !(q.name in known.fields)) continue;
    queryValues[q.name] = encodeURIComponent(String(sample(doc, q.schema ?? {}, known, q.name)));
  }
  const bodyValue = op.body ? sample(doc, op.body, known) : undefined;

  const build = (
    label: string,
    over: {
      path?: Record<string, string>;
      query?: Record<string, string | string[]>;
      body?: unknown;
      rawBody?: FuzzCase['body'];
      type?: string;
      headers?: Record<string, string>;
    } = {},
  ): FuzzCase => {
    const path = { ...pathValues, ...over.path };
    let url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => path[name] ?? 'x');
    const query = { ...queryValues, ...over.query };
    const pairs = Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${k}=${one}`));
    if (pairs.length) url += `?${pairs.join('&')}`;
    const headers: Record<string, string> = { ...over.headers };
    let body: FuzzCase['body'];
    if ('rawBody' in over) {
      body = over.rawBody;
      if (over.type) headers['content-type'] = over.type;
    } else if (over.body !== undefined || bodyValue !== undefined) {
      body = encodeBody(over.body !== undefined ? over.body : bodyValue);
      headers['content-type'] = 'application/json';
    } else if (op.method === 'POST' && op.path === '/v1/imports') {
      body = 'email,first_name\nfuzz@example.test,Fuzz\n';
      headers['content-type'] = 'text/csv';
    }
    return { op, label, method: op.method, url, headers, body };
  };

  const cases: FuzzCase[] = [build('plausible')];
  const firstPath = op.pathParams[0];
  const firstQuery = op.query[0];
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  if (options.level === 'refused') {
    if (firstPath) cases.push(build(`path ${firstPath}=%00`, { path: { [firstPath]: '%00' } }));
    if (firstQuery) cases.push(build(`query ${firstQuery.name}=%00`, { query: { [firstQuery.name]: '%00' } }));
    if (hasBody) {
      for (const whole of WHOLE_BODIES.filter((w) => /nested|NUL/.test(w.label))) {
        cases.push(build(whole.label, { rawBody: whole.body, type: whole.type }));
      }
    }
    return cases;
  }
  const full = options.level === 'full';
  const badPaths = full ? PATH_VALUES : ['a%00b', '%ED%A0%80'];
  const badQueries = full ? QUERY_VALUES : ['a%00b', '%ED%A0%80'];
  const badBodies = full ? BODY_VALUES : ['a\u0000b', '\ud800'];

  for (const name of op.pathParams) {
    for (const value of badPaths) cases.push(build(`path ${name}=${value.slice(0, 40)}`, { path: { [name]: value } }));
  }
  for (const q of op.query) {
    for (const value of badQueries) {
      cases.push(build(`query ${q.name}=${value.slice(0, 40)}`, { query: { [q.name]: value } }));
    }
    if (full) cases.push(build(`query ${q.name} twice`, { query: { [q.name]: ['a', 'b'] } }));
  }
  if (op.query.length && full) cases.push(build('unknown query %00', { query: { ['%00']: '%00' } }));
  if (hasBody) {
    for (const whole of full ? WHOLE_BODIES : WHOLE_BODIES.filter((w) => /nested|NUL/.test(w.label))) {
      cases.push(build(whole.label, { rawBody: whole.body, type: whole.type }));
    }
  }
  if (bodyValue !== undefined) {
    for (const path of leafPaths(bodyValue)) {
      for (const value of badBodies) {
        cases.push(build(`body ${path.join('.')}=${describe(value)}`, { body: withValue(bodyValue, path, value) }));
      }
    }
    // A NUL and a lone surrogate in the keys of every object of the body.
    for (const path of [[], ...leafPaths(bodyValue)]) {
      const at = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], bodyValue);
      if (!at || typeof at !== 'object' || Array.isArray(at)) continue;
      for (const key of full ? ['k\u0000', '\ud800'] : ['k\u0000']) {
        const changed = { ...(at as Record<string, unknown>), [key]: 'x' };
        cases.push(
          build(`key ${JSON.stringify(key)} in ${path.join('.') || 'body'}`, {
            body: path.length ? withValue(bodyValue, path, changed) : changed,
          }),
        );
      }
    }
  }
  if (full) for (const h of HEADER_VALUES) cases.push(build(h.label, { headers: h.headers }));

  // Seeded combinations: two to four changes at once, anywhere in the request.
  const leaves = bodyValue !== undefined ? leafPaths(bodyValue) : [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(options.random() * list.length)] as T;
  for (let i = 0; i < options.combinations; i++) {
    let body = bodyValue;
    const path: Record<string, string> = {};
    const query: Record<string, string> = {};
    const parts: string[] = [];
    const changes = 2 + Math.floor(options.random() * 3);
    for (let c = 0; c < changes; c++) {
      const where = options.random();
      if (where < 0.5 && leaves.length) {
        const leaf = pick(leaves);
        const value = pick([...BODY_VALUES, ...MORE_BODY_VALUES]);
        body = withValue(body, leaf, value);
        parts.push(`${leaf.join('.')}=${describe(value)}`);
      } else if (where < 0.75 && op.query.length) {
        const q = pick(op.query);
        query[q.name] = pick([...QUERY_VALUES, ...MORE_QUERY_VALUES]);
        parts.push(`?${q.name}=${query[q.name]?.slice(0, 20)}`);
      } else if (op.pathParams.length) {
        const name = pick(op.pathParams);
        path[name] = pick([...PATH_VALUES, ...MORE_PATH_VALUES]);
        parts.push(`{${name}}=${path[name]?.slice(0, 20)}`);
      }
    }
    if (parts.length) cases.push(build(`combination ${parts.join(' ')}`, { path, query, body }));
  }
  return cases;
}

/** Routes outside the document (pages, forms, files, the API reference), with hostile parts. */
export function offDocumentCases(known: Known): FuzzCase[] {
  const slug = String(known.fields.slug ?? 'x');
  const form = 'application/x-www-form-urlencoded';
  const list: { method: string; url: string; body?: string; type?: string; headers?: Record<string, string> }[] = [];
  for (const bad of ['%00', 'a%00b', '%ED%A0%80', '%FF', '%01', 'x'.repeat(5_000)]) {
    list.push(
      { method: 'GET', url: `/c/${bad}` },
      { method: 'POST', url: `/c/${bad}/signup`, body: 'email=a%40b.test', type: form },
      { method: 'POST', url: `/c/${slug}/signup`, body: `email=${bad}`, type: form },
      { method: 'GET', url: `/c?page=${bad}` },
      { method: 'GET', url: `/public/signups/confirm?token=${bad}` },
      { method: 'GET', url: `/billing/portal/${bad}` },
      { method: 'POST', url: `/billing/portal/${bad}`, body: `action=${bad}`, type: form },
      { method: 'GET', url: `/billing/checkout/${bad}` },
      { method: 'POST', url: `/billing/checkout/${bad}`, body: `card=${bad}&expiry=${bad}&cvc=${bad}`, type: form },
      { method: 'GET', url: `/files/${bad}` },
      { method: 'GET', url: `/docs/static/${bad}` },
      { method: 'GET', url: `/v1/${bad}` },
      { method: 'GET', url: `/${bad}` },
    );
  }
  list.push(
    { method: 'GET', url: '/sdk/emt-sdk.js', headers: { 'if-none-match': `"${'x'.repeat(8_000)}"` } },
    { method: 'OPTIONS', url: '/public/widgets/x/signups', headers: { origin: 'null' } },
    { method: 'POST', url: '/v1/billing/webhook', body: '{"\\u0000":1}', type: 'application/json' },
    { method: 'POST', url: '/c/x/signup', body: DEEP_ARRAYS, type: form },
  );
  return list.map((c) => ({
    op: { method: c.method, path: c.url.split('?')[0] ?? c.url, pathParams: [], query: [], body: null },
    label: 'off the document',
    method: c.method,
    url: c.url,
    headers: { ...c.headers, ...(c.type ? { 'content-type': c.type } : {}) },
    body: c.body,
  }));
}
