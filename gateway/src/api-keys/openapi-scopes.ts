/**
 * The API reference's word on keys (lib/openapi.ts asks it for each operation): which scopes may call
 * an operation, read from the guard hooks the route declares, so it cannot drift from what is enforced.
 */
import { guardPermissions } from '../auth/index';
import type { ApiKeyScope } from '../contracts';
import { API_KEY_SCOPES } from '../contracts';
import { scopesWith } from './scopes';

/**
 * The scopes whose keys pass every guard of a route (a guard asks for any one of its permissions; a
 * route without a permission is for people only: none). A route behind a session whose guards are
 * not the auth area's own (the platform admins' wrappers) gets none: no scope holds an admin permission.
 */
export function keyScopesOfRoute(onRequest: unknown): ApiKeyScope[] {
  let scopes: ApiKeyScope[] | undefined;
  for (const hook of [onRequest].flat()) {
    const permissions = guardPermissions(hook);
    if (!permissions) continue;
    const passing = new Set(permissions.flatMap((p) => scopesWith(p)));
    scopes = (scopes ?? [...API_KEY_SCOPES]).filter((s) => passing.has(s));
  }
  return scopes ?? [];
}
