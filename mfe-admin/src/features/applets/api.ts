/** The applets feature's calls and query keys (['admin', 'applets', ...]). */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  Applet,
  AppletManifest,
  AppletPage,
  MessageResponse,
  type AppletBody,
  type AppletUpdateBody,
} from '@console/shared/contracts';

export const APPLETS_KEY = ['admin', 'applets'] as const;

/** Spec section 8: fetch errors of the applets are only logged. */
function logged<T>(what: string, promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    console.error(`[console] ${what} failed`, error);
    throw error;
  });
}

export function fetchApplets(query: Record<string, string | number>) {
  return logged('applets fetch', api.get('/v1/applets', AppletPage, query));
}

export function fetchApplet(id: string) {
  return logged('applet fetch', api.get(`/v1/applets/${encodeURIComponent(id)}`, Applet));
}

// Spec section 8: applet save and delete return the server's error body to the caller (an ApiError).
export function createApplet(body: AppletBody) {
  return api.post('/v1/applets', Applet, body);
}

export function updateApplet(body: AppletUpdateBody) {
  return api.patch(`/v1/applets/${encodeURIComponent(body._id)}`, Applet, body);
}

export function deleteApplet(id: string) {
  return api.delete(`/v1/applets/${encodeURIComponent(id)}`, MessageResponse);
}

/** POST /v1/applets/inspect: the gateway reads the manifest and answers what it exposes. */
export function inspectManifest(manifestUrl: string) {
  return api.post('/v1/applets/inspect', AppletManifest, { manifest_url: manifestUrl });
}

/** Spec section 4: the applets list reloads after a save or a delete. */
export function invalidateApplets(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: APPLETS_KEY });
}
