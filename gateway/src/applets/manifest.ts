/**
 * A Module Federation manifest (`mf-manifest.json` of @module-federation/enhanced): the remote's `name` and its
 * `exposes`, each with a `path` ('./Page'). Pure.
 */
import type { AppletManifest } from '../contracts';

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The manifest's name and exposed modules, or null when the JSON is not such a manifest. */
export function manifestOf(json: unknown): AppletManifest | null {
  const manifest = record(json);
  if (!manifest || typeof manifest.name !== 'string' || manifest.name.trim() === '') return null;
  if (!Array.isArray(manifest.exposes)) return null;
  const exposes: string[] = [];
  for (const item of manifest.exposes) {
    const expose = record(item);
    if (!expose) return null;
    // `path` is './Page'; an entry with only its `name` ('Page') is exposed as './Page'.
    const path =
      typeof expose.path === 'string' && expose.path !== ''
        ? expose.path
        : typeof expose.name === 'string' && expose.name !== ''
          ? `./${expose.name}`
          : null;
    if (path === null) return null;
    if (!exposes.includes(path)) exposes.push(path);
  }
  return { name: manifest.name, exposes };
}
