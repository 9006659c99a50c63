import { useEffect, useSyncExternalStore } from 'react';
import { api } from '@console/shared/api';
import { PLAN_CHANGED } from '@console/shared/config';
import { AppList, type App } from '@console/shared/contracts';
import type { ConsoleUser } from '@console/shared/session';
import { hasApps } from './apps-menu';

/**
 * The tenant's applets (GET /v1/apps), fetched once per session (per signed-in user and tenant) and
 * again after a plan change (the planChanged event, spec section 4), since the plan decides which
 * applets a tenant sees. A failed fetch is logged and leaves no Apps entries until a retry.
 */
export interface AppsState {
  status: 'loading' | 'ready' | 'failed';
  apps: App[];
}

let current: { key: string | null; state: AppsState } = { key: null, state: { status: 'loading', apps: [] } };
let pending: string | null = null;
const listeners = new Set<() => void>();

function publish(key: string, state: AppsState) {
  current = { key, state };
  for (const listener of listeners) listener();
}

async function fetchApps(key: string): Promise<void> {
  pending = key;
  try {
    const { records } = await api.get('/v1/apps', AppList);
    if (pending === key) publish(key, { status: 'ready', apps: records });
  } catch (error) {
    console.error('[console] apps fetch failed', error);
    if (pending === key) publish(key, { status: 'failed', apps: [] });
  } finally {
    if (pending === key) pending = null;
  }
}

/** Fetch the current session's applets again (a retry after a failure). */
export function reloadApps(): void {
  if (current.key) void fetchApps(current.key);
}

if (typeof window !== 'undefined') window.addEventListener(PLAN_CHANGED, reloadApps);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const LOADING: AppsState = { status: 'loading', apps: [] };
const NONE: AppsState = { status: 'ready', apps: [] };

/** The signed-in user's applets; none (and no request) for users without the tenant sidebar. */
export function useApps(user: ConsoleUser | null): AppsState {
  const key = user && hasApps(user) ? `${user._id}:${user.tenant_id}` : null;
  useEffect(() => {
    if (key && current.key !== key && pending !== key) void fetchApps(key);
  }, [key]);
  const snapshot = useSyncExternalStore(subscribe, () => current);
  if (!key) return NONE;
  return snapshot.key === key ? snapshot.state : LOADING;
}

/** Tests: forget the fetched applets. */
export function resetAppsForTests(): void {
  current = { key: null, state: LOADING };
  pending = null;
}
