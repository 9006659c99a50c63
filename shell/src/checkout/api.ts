import Cookies from 'js-cookie';
import { api } from '@console/shared/api';
import { consoleStore, loadUser } from '@console/shared/session';
import {
  CheckoutCompleted,
  CheckoutStarted,
  PlanCatalogue,
  type CheckoutBody,
  type CheckoutSummary,
  type Plan,
} from '@console/shared/contracts';

/** Checkout calls (spec sections 3, 4 and 9): none needs a session. */

export const checkoutKeys = {
  plans: ['checkout', 'plans'],
  complete: (sessionId: string) => ['checkout', 'complete', sessionId],
};

/** The public plan catalogue (GET /v1/plans/public: the checkout page has no session). */
export async function fetchPublicPlans(): Promise<Plan[]> {
  return (await api.get('/v1/plans/public', PlanCatalogue)).records;
}

/**
 * The secret of the checkout this browser started, kept in local storage until the one sign-in after
 * payment: the success page's ?session= id alone signs nobody in. Local, not session, storage: the
 * payment link arrives by e-mail and usually opens in a new tab.
 */
const SECRET_KEY = 'console-checkout';

export function rememberCheckout(sessionId: string, secret: string): void {
  try {
    window.localStorage.setItem(SECRET_KEY, JSON.stringify({ sessionId, secret }));
  } catch {
    /* storage unavailable: the success page asks the customer to sign in instead */
  }
}

export function checkoutSecret(sessionId: string): string | null {
  try {
    const raw: unknown = JSON.parse(window.localStorage.getItem(SECRET_KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return null;
    const saved = raw as { sessionId?: unknown; secret?: unknown };
    return saved.sessionId === sessionId && typeof saved.secret === 'string' ? saved.secret : null;
  } catch {
    return null;
  }
}

function forgetCheckout(): void {
  try {
    window.localStorage.removeItem(SECRET_KEY);
  } catch {
    /* nothing kept */
  }
}

/** POST /v1/checkout: stores the order; the next step arrives by e-mail. */
export function startCheckout(body: CheckoutBody): Promise<CheckoutStarted> {
  return api.post('/v1/checkout', CheckoutStarted, body);
}

const COOKIE = { sameSite: 'strict' as const, path: '/' };

/**
 * Sign-in with a token from a paid checkout, as the session's sign-in does it (spec section 4):
 * remove admin_token, set the token cookie (the API client's bearer header), load the user.
 */
export async function signInWithToken(token: string): Promise<void> {
  Cookies.remove('admin_token', COOKIE);
  Cookies.set('token', token, COOKIE);
  consoleStore.getState().setError(false);
  const user = await loadUser();
  consoleStore.getState().signedIn(token, user);
}

/** POST /v1/checkout/{id}/complete with this tab's secret, then signs the new owner in. */
export async function completeCheckout(sessionId: string, secret: string): Promise<CheckoutSummary> {
  const { token, checkout } = await api.post(
    `/v1/checkout/${encodeURIComponent(sessionId)}/complete`,
    CheckoutCompleted,
    { secret },
  );
  forgetCheckout();
  await signInWithToken(token);
  return checkout;
}
