import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billingKeys, changePlan, fetchChangeSummary, fetchPlans } from './api';
import { completePlanChange } from './complete-plan-change';

/**
 * The plan catalogue, fetched each time the picker opens (stale at once: platform admins edit labels
 * and prices from /plans, and the next opening must show them; the last answer shows meanwhile).
 */
export function usePlanCatalogue(enabled: boolean) {
  return useQuery({ queryKey: billingKeys.plans, queryFn: fetchPlans, enabled, staleTime: 0 });
}

/**
 * The change summary of a price, fetched when the confirm dialog opens. Never reused: the confirm
 * dialog mounts afresh for each choice, and gcTime 0 drops the previous answer.
 */
export function useChangeSummary(priceId: string, enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.summary(priceId),
    queryFn: () => fetchChangeSummary(priceId),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** Changes the plan, then runs the after-change steps (the button stays busy until they are done). */
export function useChangePlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (priceId: string) => {
      const result = await changePlan(priceId);
      await completePlanChange(result, client);
      return result;
    },
  });
}
