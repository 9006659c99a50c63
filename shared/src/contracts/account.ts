/**
 * Your Profile and General Settings (spec section 2: account/profile; account/general-settings needs
 * company_settings). Time zones are IANA names; a member without their own uses the community's.
 */
import * as z from 'zod/mini';
import { Email, Password, text } from '@console/shared/contracts/core';

/** Whether the runtime knows the IANA time zone (aliases such as 'US/Eastern' included). */
export function isTimeZone(value: string): boolean {
  if (!value) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = text(64).check(z.refine(isTimeZone, 'Choose a time zone from the list.'));

const FirstName = text(100, 'Use at most 100 characters.').check(z.trim(), z.minLength(1, 'Enter your first name.'));
const LastName = text(100, 'Use at most 100 characters.').check(z.trim());

export const Profile = z.object({
  email: z.string(),
  /** A new sign-in address waiting to be confirmed from itself; `email` stays until then. */
  pending_email: z.nullable(z.string()),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.nullable(z.string()),
  /** The member's own zone, or null to follow the community's. */
  time_zone: z.nullable(z.string()),
  community_time_zone: z.string(),
});
export type Profile = z.infer<typeof Profile>;

/** Only the given fields change; null clears the avatar or the own time zone. */
export const ProfilePatch = z.object({
  first_name: z.optional(FirstName),
  last_name: z.optional(LastName),
  /** A `fileUrl` of an image uploaded through POST /v1/files/s3-presigned-url. */
  avatar: z.optional(z.nullable(text(2048))),
  time_zone: z.optional(z.nullable(TimeZone)),
});
export type ProfilePatch = z.infer<typeof ProfilePatch>;

/** POST /v1/profile/email: a new sign-in address, confirmed from itself; the current password proves it is you. */
export const EmailChangeBody = z.object({ email: Email, current_password: Password });
export type EmailChangeBody = z.infer<typeof EmailChangeBody>;

export const SETTINGS_LIMITS = { communityName: 255, senderName: 100, postalAddress: 500 } as const;

export const GeneralSettings = z.object({
  /** The community's name: its page's title (shown there read-only). */
  community_name: z.string(),
  /** The sender name a new e-mail starts with; null: the community's name. */
  default_sender_name: z.nullable(z.string()),
  default_reply_to: z.nullable(z.string()),
  /** Printed in the footer of marketing e-mails (merge tag community.postal_address). */
  postal_address: z.nullable(z.string()),
  time_zone: z.string(),
});
export type GeneralSettings = z.infer<typeof GeneralSettings>;

/** Only the given fields change; null (or blank text) clears an optional one. */
export const GeneralSettingsPatch = z.object({
  community_name: z.optional(
    text(SETTINGS_LIMITS.communityName, `Use at most ${SETTINGS_LIMITS.communityName} characters.`).check(
      z.trim(),
      z.minLength(1, 'Enter the community name.'),
    ),
  ),
  default_sender_name: z.optional(
    z.nullable(
      text(SETTINGS_LIMITS.senderName, `Use at most ${SETTINGS_LIMITS.senderName} characters.`).check(z.trim()),
    ),
  ),
  default_reply_to: z.optional(z.nullable(Email)),
  postal_address: z.optional(
    z.nullable(
      text(SETTINGS_LIMITS.postalAddress, `Use at most ${SETTINGS_LIMITS.postalAddress} characters.`).check(z.trim()),
    ),
  ),
  time_zone: z.optional(TimeZone),
});
export type GeneralSettingsPatch = z.infer<typeof GeneralSettingsPatch>;
