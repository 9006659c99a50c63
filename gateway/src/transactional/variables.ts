/**
 * Which merge variables a transactional message must give (docs/transactional.md, "Merge variables"):
 * every path the template reads, except what the platform fills (community.*, the links, contact.*
 * from the matching contact or the address), must be present in the request's `data`.
 */

/** Roots the platform fills for every message. */
const PLATFORM_ROOTS = new Set(['community', 'contact', 'unsubscribe_url', 'view_in_browser_url']);
/** Liquid's own properties of a value (`{{ items.size }}` reads `items`). */
const VALUE_PROPERTIES = new Set(['size', 'first', 'last']);

/** The variables a caller gives for a template's paths: platform ones left out, value properties cut, sorted. */
export function callerVariables(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const path of paths) {
    const parts = path.split('.');
    if (PLATFORM_ROOTS.has(parts[0] ?? '')) continue;
    while (parts.length > 1 && VALUE_PROPERTIES.has(parts[parts.length - 1] ?? '')) parts.pop();
    out.add(parts.join('.'));
  }
  return [...out].sort();
}

function present(data: unknown, path: string): boolean {
  let at: unknown = data;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return at !== undefined && at !== null;
}

/** The caller's variables `data` lacks (absent or null), in order. */
export function missingVariables(variables: readonly string[], data: Record<string, unknown>): string[] {
  return variables.filter((v) => !present(data, v));
}
