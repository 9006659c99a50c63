/** The billing feature's calls and its query key (['billing']). */
import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { PLAN_CHANGED } from '@console/shared/config';
import { ApiError, api } from '@console/shared/api';
import { BillingOverview, MessageResponse, PortalResponse } from '@console/shared/contracts';

export const BILLING_KEY = ['billing'] as const;

/** GET /v1/billing (company_settings). */
export function fetchBillingOverview() {
  return api.get('/v1/billing', BillingOverview);
}

/** DELETE /v1/billing/scheduled-change: keep the current plan. */
export function cancelScheduledChange() {
  return api.delete('/v1/billing/scheduled-change', MessageResponse);
}

/**
 * POST /v1/billing/access-portal: the payment provider's portal URL, coming back to `returnUrl`.
 * Only an http(s) URL is accepted: anything else (e.g. `javascript:`) is refused before navigation.
 */
export async function fetchPortalUrl(returnUrl: string): Promise<string> {
  const { url } = await api.post('/v1/billing/access-portal', PortalResponse, { return_url: returnUrl });
  if (!isWebUrl(url)) throw new ApiError(502, { message: 'The billing portal sent an invalid address.' });
  return url;
}

export function isWebUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The server's message, or `fallback` when it sent none. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.body.message ? error.body.message : fallback;
}

export function useBillingOverview() {
  return useQuery({ queryKey: BILLING_KEY, queryFn: fetchBillingOverview });
}

export function refetchBilling(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: BILLING_KEY });
}

/** The plan dialogs live in the shell: refetch the overview when it announces a plan change. */
export function useRefetchOnPlanChanged(): void {
  const client = useQueryClient();
  useEffect(() => {
    const onChanged = () => void refetchBilling(client);
    window.addEventListener(PLAN_CHANGED, onChanged);
    return () => window.removeEventListener(PLAN_CHANGED, onChanged);
  }, [client]);
}
