import Cookies from 'js-cookie';
import { api, ApiError, onSessionVersion } from '@console/shared/api';
import type { SessionUser } from '@console/shared/contracts/core';
import { hasExperimentalFeatures } from '@console/shared/access';
import { runtimeConfig, SESSION_REFRESHED } from '@console/shared/config';
import { consoleStore, type ConsoleUser } from './store';

/** The transitions of spec section 4. Pure store updates live in the store; effects live here. */

export const INVALID_CREDENTIALS = 'Invalid credentials, please try again.';
const COOKIE = { sameSite: 'strict' as const, path: '/' };

/** Where the browser goes; replaced in tests. */
export const navigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

export function isImpersonating(): boolean {
  return Boolean(Cookies.get('admin_token'));
}

export function toConsoleUser(user: SessionUser): ConsoleUser {
  return {
    ...user,
    is_impersonating: isImpersonating(),
    enableExperimentalFeatures: hasExperimentalFeatures(user.tenant_name, runtimeConfig().experimentalPrefix),
  };
}

/** The session's schemas, loaded with the first sign-in or verify rather than with the sign-in screen. */
const contracts = () => import('@console/shared/contracts/core');

async function verify(token: string): Promise<ConsoleUser> {
  const { VerifyResponse } = await contracts();
  const { user } = await api.post('/v1/auth/verify', VerifyResponse, { token });
  return toConsoleUser(user);
}

/** Verify the token and load the user (the guard and "refresh permissions" both use this). */
export async function loadUser(): Promise<ConsoleUser> {
  const token = Cookies.get('token') ?? consoleStore.getState().token;
  if (!token) throw new ApiError(401, { message: 'Not signed in' });
  const user = await verify(token);
  consoleStore.getState().userLoaded(user);
  return user;
}

/**
 * Spec section 4: refreshing permissions re-verifies and reloads the user, e.g. after a plan change or
 * when the gateway's answers carry a new access version: locked items unlock, the menus follow, and the
 * shell applies its guard to the page shown (SESSION_REFRESHED), without a reload.
 */
export async function refreshPermissions(): Promise<ConsoleUser> {
  const user = await loadUser();
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(SESSION_REFRESHED));
  return user;
}

let refreshing: Promise<unknown> | null = null;

/**
 * An answer carried the session's access version (X-Session-Version). The session check's own answer
 * gives the version of the user it loads; any other answer with another version means the user's
 * role, permissions, plan or tenant changed since: permissions are refreshed once, whatever the number
 * of answers saying so.
 */
export function sessionVersionSeen(version: string, path: string): void {
  const store = consoleStore.getState();
  if (path.endsWith('/v1/auth/verify') || store.sessionVersion === null) {
    store.sessionVersionSeen(version);
    return;
  }
  if (version === store.sessionVersion || refreshing || !store.user) return;
  store.sessionVersionSeen(version);
  refreshing = refreshPermissions()
    .catch(() => undefined) // the next page's guard verifies again and signs out if it must
    .finally(() => {
      refreshing = null;
    });
}

onSessionVersion(sessionVersionSeen);

/**
 * The end of every sign-in (spec section 4), for a token the gateway issued (the login form, an
 * accepted invitation): remove admin_token, set the token cookie (the bearer header of every call),
 * load the user, go to /. Rejects, changing nothing in the store, when the token does not verify.
 */
export async function signInWithToken(token: string): Promise<void> {
  Cookies.remove('admin_token', COOKIE);
  Cookies.set('token', token, COOKIE);
  const user = await verify(token);
  consoleStore.getState().signedIn(token, user);
  navigation.assign('/');
}

/**
 * The gateway answered a new token for this session (a password change ends every other session and
 * re-issues this one's): it replaces the token cookie and the store's token; user and page stay.
 */
export function replaceSessionToken(token: string): void {
  Cookies.set('token', token, COOKIE);
  consoleStore.getState().tokenReplaced(token);
}

/**
 * Sign-in: POST /v1/auth/login with the form's fields, then signInWithToken. While the account's
 * guessing limit is reached the gateway answers a message instead of a token (a sign-in link was
 * e-mailed if the password was right): the form shows it in its message place (docs/auth.md).
 */
export async function signIn(): Promise<void> {
  const store = consoleStore.getState();
  store.setBusy(true);
  store.setError(false);
  try {
    const { LoginResponse } = await contracts();
    const answer = await api.post('/v1/auth/login', LoginResponse, {
      email: store.email,
      password: store.password,
    });
    if (!('token' in answer)) {
      consoleStore.getState().setBusy(false);
      consoleStore.getState().setError(answer.message);
      return;
    }
    await signInWithToken(answer.token);
  } catch (error) {
    const message = error instanceof ApiError && error.body.message ? error.body.message : INVALID_CREDENTIALS;
    consoleStore.getState().setBusy(false);
    consoleStore.getState().setError(message || INVALID_CREDENTIALS);
  }
}

/** Clear user, token and form fields and remove both cookies (sign-out without the reload). */
export function clearSession(): void {
  consoleStore.getState().signedOut();
  Cookies.remove('token', COOKIE);
  Cookies.remove('admin_token', COOKIE);
}

/**
 * Ends the tokens on the server (POST /v1/auth/logout), so a copy of them stops working at once. The
 * request is sent with keepalive, so it completes while the page reloads; sign-out never waits for it
 * and never fails because of it.
 */
function revokeTokens(tokens: (string | undefined)[]): void {
  for (const token of tokens) {
    if (!token) continue;
    fetch(`${runtimeConfig().gatewayUrl}/v1/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      keepalive: true,
    }).catch(() => undefined);
  }
}

/**
 * Sign-out (spec section 4): clear user, token and form fields, remove both cookies, full reload to
 * /login; first the server is told to end the token (and the admin's, while impersonating).
 */
export function signOut(): void {
  revokeTokens([Cookies.get('token'), Cookies.get('admin_token')]);
  clearSession();
  navigation.assign('/login');
}

/** Start impersonation: token for the target, keep ours as admin_token, reload to /. */
export async function startImpersonation(userId: string): Promise<void> {
  const store = consoleStore.getState();
  store.setBusy(true);
  try {
    const current = Cookies.get('token');
    if (!current) throw new ApiError(401, { message: 'Not signed in' });
    const { TokenResponse } = await contracts();
    const { token } = await api.post('/v1/auth/impersonate', TokenResponse, { user_id: userId });
    Cookies.set('admin_token', current, COOKIE);
    Cookies.set('token', token, COOKIE);
    const user = await verify(token);
    consoleStore.getState().signedIn(token, { ...user, is_impersonating: true });
    navigation.assign('/');
  } catch {
    consoleStore.getState().setError(true);
    consoleStore.getState().setBusy(false);
  }
}

/** Stop impersonation: restore admin_token as token, remove admin_token, reload user, reload to /. */
export async function stopImpersonation(): Promise<void> {
  const store = consoleStore.getState();
  store.setBusy(true);
  try {
    const admin = Cookies.get('admin_token');
    if (!admin) throw new ApiError(400, { message: 'Not impersonating' });
    Cookies.set('token', admin, COOKIE);
    Cookies.remove('admin_token', COOKIE);
    const user = await verify(admin);
    consoleStore.getState().signedIn(admin, user);
    navigation.assign('/');
  } catch {
    consoleStore.getState().setError(true);
    consoleStore.getState().setBusy(false);
  }
}
