import type { QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  PlanCatalogue,
  Tenant,
  TenantOptions,
  TenantPage,
  TenantStats,
  AppletPage,
  MessageResponse,
  type Applet,
  type Plan,
  type TenantCreateBody,
  type TenantSettingsBody,
  type TenantUpdateBody,
} from '@console/shared/contracts';
import type { TenantApiQuery } from './tenant-query';

export const tenantKeys = {
  all: ['admin', 'tenants'] as const,
  pages: ['admin', 'tenants', 'page'] as const,
  page: (query: TenantApiQuery) => ['admin', 'tenants', 'page', query] as const,
  stats: (query: TenantApiQuery) => ['admin', 'tenants', 'stats', query] as const,
  options: ['admin', 'tenants', 'options'] as const,
  one: (id: string) => ['admin', 'tenants', 'one', id] as const,
  plans: ['admin', 'tenants', 'plans'] as const,
  applets: ['admin', 'tenants', 'applets'] as const,
};

/** Spec section 8: fetch errors of the tenant list and stats are only logged (the grid offers a retry). */
async function logged<T>(what: string, request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    console.error(`[console] ${what} failed`, error);
    throw error;
  }
}

const path = (id: string) => `/v1/tenants/${encodeURIComponent(id)}`;

export function fetchTenants(query: TenantApiQuery) {
  return logged('tenant list', api.get('/v1/tenants', TenantPage, { ...query, includeOwner: true }));
}

/** GET /v1/tenants/stats with the grid's query: figures over exactly the tenants it lists. */
export function fetchTenantStats(query: TenantApiQuery) {
  return logged('tenant stats', api.get('/v1/tenants/stats', TenantStats, query));
}

export function fetchTenantOptions() {
  return logged('tenant options', api.get('/v1/tenants/options', TenantOptions));
}

export function fetchTenant(id: string) {
  return api.get(path(id), Tenant);
}

/** The plan catalogue: create and edit choose a plan by its id. */
export async function fetchPlans(): Promise<Plan[]> {
  return (await api.get('/v1/plans', PlanCatalogue)).records;
}

/** Spec section 7: the applets' full fetch (perPage 1000) feeds the tenant settings' applet picker. */
export async function fetchAllApplets(): Promise<Applet[]> {
  return (await api.get('/v1/applets', AppletPage, { page: 1, perPage: 1000 })).records;
}

export function createTenant(body: TenantCreateBody) {
  return api.post('/v1/tenants', Tenant, body);
}

/** PATCH /v1/tenants/{id}: name and plan only (never last_warning_sent_date or last_limit_sent_date). */
export function updateTenant(id: string, body: TenantUpdateBody) {
  return api.patch(path(id), Tenant, body);
}

export function updateTenantSettings(id: string, body: TenantSettingsBody) {
  return api.patch(`${path(id)}/settings`, Tenant, body);
}

export function deleteTenant(id: string) {
  return api.delete(path(id), MessageResponse);
}

export function resendWelcomeEmail(id: string) {
  return api.get(`${path(id)}/resend-welcome-email`, MessageResponse);
}

/** After a create, edit or settings change: the grid, its figures and the detail read again. */
export function invalidateTenants(client: QueryClient) {
  return client.invalidateQueries({ queryKey: tenantKeys.all });
}

/** A deleted tenant leaves every cached page at once (its data goes in a background job). */
export function dropTenant(client: QueryClient, id: string) {
  client.setQueriesData<TenantPage>({ queryKey: tenantKeys.pages }, (page) =>
    page ? { ...page, records: page.records.filter((tenant) => tenant._id !== id) } : page,
  );
}
