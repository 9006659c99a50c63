import { ApiErrorBody } from '../contracts';

/** Error responses a route can give, for its schema (so they show in the OpenAPI document). */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((c) => [c, ApiErrorBody])) as { [K in C[number]]: typeof ApiErrorBody };
}

/** Marks a route as needing `Authorization: Bearer <token>` in the OpenAPI document. */
export const bearer = [{ bearerAuth: [] }];
