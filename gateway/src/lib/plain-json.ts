/**
 * A route's `serializerCompiler` for the hottest answers (the session check, the caller's community):
 * plain JSON.stringify instead of zod's encode of the response schema, which cost about a sixth of
 * such a request's CPU. Only for answers a typed function builds field by field from the contract's
 * type (`toSessionUser`, `toCommunity`), so there is nothing for the schema to strip or convert; the
 * response schemas stay on the route for the OpenAPI document, and a test checks that each answer
 * equals its schema's parse (auth/hot-routes.test.ts). Error answers are `{message, errors?}` objects
 * made by errors.ts.
 */
export function plainJsonSerializer(): (data: unknown) => string {
  return (data) => JSON.stringify(data);
}
