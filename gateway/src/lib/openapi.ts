import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { globalRegistry } from 'zod/v4/core';
import { ApiErrorBody, SegmentGroup } from '../contracts';

/** Error responses a route can give, for its schema (so they show in the OpenAPI document). */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((c) => [c, ApiErrorBody])) as { [K in C[number]]: typeof ApiErrorBody };
}

/** Marks a route as needing `Authorization: Bearer <token>` in the OpenAPI document. */
export const bearer = [{ bearerAuth: [] }];

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

/**
 * The per-route transform of the OpenAPI document: zod schemas to JSON Schema (fastify-type-provider-zod),
 * then an `operationId` for every operation that names none.
 */
export function documentTransform(skipList: string[]): ZodTransform {
  const zodTransform = createJsonSchemaTransform({ skipList });
  return (input) => {
    const out = zodTransform(input);
    const schema = out.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide) return out;
    const method = [input.route.method].flat()[0] ?? 'GET';
    return { ...out, schema: { operationId: operationIdOf(method, out.url), ...schema } };
  };
}

/** The whole document's transform: the named components of `COMPONENTS` (and any registered schema). */
export const documentObject = createJsonSchemaTransformObject({});
