/**
 * The overview (route `overview`, `/`, spec section 2): the figures a community manager opens the
 * console for. GET /v1/overview, any user of a tenant (no permission: the figures are the tenant's
 * own; the screen shows each part only with the permission of the screen it summarises).
 */
import * as z from 'zod/mini';
import { CONTACT_SOURCES } from './audience';
import { CampaignStats, EmailUsage } from './campaigns';

/** Days shown in "contacts over time". */
export const OVERVIEW_DAYS = 90;
/** Campaigns shown in "last campaigns". */
export const OVERVIEW_CAMPAIGNS = 5;

export const ContactDay = z.object({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  added: z.int(),
  removed: z.int(),
  /** Contacts at the end of that day. */
  total: z.int(),
});

export const OverviewCampaign = z.object({
  _id: z.string(),
  name: z.string(),
  status: z.string(),
  /** When it finished sending, else when it started. */
  at: z.nullable(z.string()),
  stats: CampaignStats,
});
export type OverviewCampaign = z.infer<typeof OverviewCampaign>;

export const Overview = z.object({
  contacts: z.object({
    total: z.int(),
    /** Contacts now, by how they came in. */
    by_source: z.array(z.object({ source: z.enum(CONTACT_SOURCES), count: z.int() })),
    /** The last OVERVIEW_DAYS days, oldest first, every day present. */
    days: z.array(ContactDay),
  }),
  /** The last campaigns that started sending, newest first. */
  campaigns: z.array(OverviewCampaign),
  usage: EmailUsage,
});
export type Overview = z.infer<typeof Overview>;
