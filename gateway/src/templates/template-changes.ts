/**
 * Told in this process after a committed change to a tenant's template (a save, a restore, a
 * deletion), so that what another area keeps in memory of templates is dropped before the next request
 * (the other processes hear it from the database's notifications: transactional/template-cache.ts).
 */
const listeners = new WeakMap<object, Set<(tenantId: string) => void>>();

/** Listens to this database's template changes (one listener per area and composition root). */
export function onTemplatesChanged(db: object, listener: (tenantId: string) => void): void {
  const set = listeners.get(db) ?? new Set();
  set.add(listener);
  listeners.set(db, set);
}

/** After the commit of a change to a tenant's template. */
export function templatesChanged(db: object, tenantId: string): void {
  for (const listener of listeners.get(db) ?? []) listener(tenantId);
}
