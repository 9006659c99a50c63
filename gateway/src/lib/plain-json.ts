import type { FastifyReply } from 'fastify';

/**
 * A route's `serializerCompiler` for the hottest answers (the session check, the caller's community):
 * plain JSON.stringify instead of zod's encode of the response schema, a large share of such a
 * request's CPU (bench/README.md, "The session check's hot path"). Only for answers a typed function builds field by field from the contract's
 * type (`toSessionUser`, `toCommunity`), so there is nothing for the schema to strip or convert; the
 * response schemas stay on the route for the OpenAPI document, and a test checks that each answer
 * equals its schema's parse (auth/hot-routes.test.ts). Error answers are `{message, errors?}` objects
 * made by errors.ts.
 */
export function plainJsonSerializer(): (data: unknown) => string {
  return (data) => JSON.stringify(data);
}

/**
 * The JSON text of the answer built from `key`, serialized once per key: for answers made from an
 * object that is never changed but replaced when its data changes (a cached session, a cached row).
 * The same rule as {@link plainJsonSerializer}: `build` makes the answer field by field from its type.
 */
export function jsonTextOf<K extends object>(build: (key: K) => unknown): (key: K) => string {
  const texts = new WeakMap<K, string>();
  return (key) => {
    let text = texts.get(key);
    if (text === undefined) {
      text = JSON.stringify(build(key));
      texts.set(key, text);
    }
    return text;
  };
}

/** Sends JSON text made by {@link jsonTextOf} as it is (no serializer runs). */
export function sendJsonText(reply: FastifyReply, text: string): void {
  reply.type('application/json; charset=utf-8').send(text);
}
