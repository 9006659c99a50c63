/** A shared module's versions as the build recorded them (`shared/mf/index.cjs` `hostShared`). */
export interface SharedVersion {
  version: string;
  requiredVersion: string;
}

/**
 * The versions of a provided module: its own key in the shared-deps map, else the trailing-slash key
 * covering it (`react/jsx-runtime` under `react/`); null when the map does not share it.
 */
export function sharedVersionOf(key: string, deps: Readonly<Record<string, SharedVersion>>): SharedVersion | null {
  if (deps[key]) return deps[key];
  const prefix = Object.keys(deps)
    .filter((k) => k.endsWith('/') && key.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? (deps[prefix] ?? null) : null;
}
