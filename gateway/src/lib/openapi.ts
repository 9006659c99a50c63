import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { globalRegistry } from 'zod/v4/core';
import { ApiErrorBody, SegmentGroup } from '../contracts';

/** Error responses a route can give, for its schema (so they show in the OpenAPI document). */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((c) => [c, ApiErrorBody])) as { [K in C[number]]: typeof ApiErrorBody };
}

/**
 * Marks a route as needing `Authorization: Bearer <token>` in the OpenAPI document. Routes that API
 * keys may call also get the `apiKey` scheme and `x-scopes` (see {@link documentTransform}).
 */
export const bearer = [{ bearerAuth: [] }];

/** The security of an operation that a session or an API key of one of its `x-scopes` may call. */
export const sessionOrKey = [{ bearerAuth: [] }, { apiKey: [] }];

/**
 * Marks a route as open without a session (sign-in, public widgets, webhooks): OpenAPI 3.1 section
 * 4.8.10, an empty list overrides any document-wide requirement. Every route states one of the two.
 */
export const noSession: Array<Record<string, string[]>> = [];

/**
 * Recursive schemas are emitted once, as named components, and referenced (a schema nested in itself
 * cannot be written inline); `documentObject` adds them to the document.
 */
const COMPONENTS: Array<[object, string]> = [[SegmentGroup, 'SegmentGroup']];
for (const [schema, id] of COMPONENTS) {
  if (!globalRegistry.has(schema as never)) globalRegistry.add(schema as never, { id });
}

/**
 * A route's `operationId` when it names none: its method and path, the `v1` prefix left out and each
 * parameter written `By<Name>` (`GET /v1/contacts/{id}` → `getContactsById`). Stable as long as the
 * route is, and unique because method and path are (OpenAPI 3.1 section 4.8.10: unique, case-sensitive).
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((part) => part !== '' && part !== 'v1')
    .flatMap((part) => {
      const param = /^[:{](\w+)}?$/.exec(part);
      return param ? ['by', param[1]!] : part.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

type ZodTransform = ReturnType<typeof createJsonSchemaTransform>;

/** Which API key scopes may call a route, from its guards (undefined: not a guarded route). */
export type KeyScopesOf = (onRequest: unknown) => readonly string[] | undefined;

/**
 * What a session-guarded operation says about API keys: the `apiKey` scheme beside the session's and
 * `x-scopes` when some scope may call it, and a sentence in its description either way.
 */
function withKeyScopes(schema: Record<string, unknown>, scopes: readonly string[]): Record<string, unknown> {
  const description = typeof schema.description === 'string' ? `${schema.description} ` : '';
  if (scopes.length === 0) return { ...schema, description: `${description}API keys cannot call this.` };
  return {
    ...schema,
    security: sessionOrKey,
    'x-scopes': [...scopes],
    description: `${description}API keys of scope ${scopes.join(', ')} may call this.`,
  };
}

/**
 * The per-route transform of the OpenAPI document: zod schemas to JSON Schema (fastify-type-provider-zod),
 * then an `operationId` for every operation that names none, and for operations behind a session the
 * API key scopes that may call them.
 */
export function documentTransform(skipList: string[], keyScopesOf?: KeyScopesOf): ZodTransform {
  const zodTransform = createJsonSchemaTransform({ skipList });
  return (input) => {
    const out = zodTransform(input);
    let schema = out.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide) return out;
    const method = [input.route.method].flat()[0] ?? 'GET';
    const sessionOnly = JSON.stringify(schema.security) === JSON.stringify(bearer);
    const scopes = keyScopesOf && sessionOnly ? keyScopesOf(input.route.onRequest) : undefined;
    if (scopes) schema = withKeyScopes(schema, scopes);
    return { ...out, schema: { operationId: operationIdOf(method, out.url), ...schema } };
  };
}

/** The whole document's transform: the named components of `COMPONENTS` (and any registered schema). */
export const documentObject = createJsonSchemaTransformObject({});
