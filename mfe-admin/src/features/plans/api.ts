import { api } from '@console/shared/api';
import { Plan, PlanCatalogue, type PlanUpdate } from '@console/shared/contracts';

/** The catalogue's query key (the admin's own cache; the shell's picker refetches on open). */
export const PLANS_KEY = ['admin', 'plans'] as const;

export async function fetchPlans(): Promise<Plan[]> {
  return (await api.get('/v1/plans', PlanCatalogue)).records;
}

/** PATCH /v1/plans/{id} (admin_plans): answers the updated plan. */
export function updatePlan(id: string, body: PlanUpdate): Promise<Plan> {
  return api.patch(`/v1/plans/${encodeURIComponent(id)}`, Plan, body);
}
