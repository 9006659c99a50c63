/** How the tenant screens write a tenant's figures. Pure. */
import type { TenantBillingState } from '@console/shared/contracts';
import { formatCount } from '@console/shared/format';

export const BILLING_STATE_LABELS: Record<TenantBillingState, string> = {
  no_billing: 'No billing',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
};

/** '4,200 of 60,000' (e-mails sent this period against the volume they count against). */
export function sentOfVolume(sent: number, volume: number): string {
  return `${formatCount(sent)} of ${formatCount(volume)}`;
}

/** '$1,234.50' from cents in the stats' currency. */
export function formatCents(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** 'Ada Lovelace' or the e-mail when the person has no name. */
export function personName(person: { first_name: string; last_name: string; email: string }): string {
  return `${person.first_name} ${person.last_name}`.trim() || person.email;
}

/** A day of a series ('2026-03-05') as uPlot's seconds. */
export function daySeconds(day: string): number {
  return Date.parse(day.length === 10 ? `${day}T00:00:00Z` : day) / 1000;
}
