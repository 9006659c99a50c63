/** Your Profile's form rules: the values, what a save sends, and the form's own check. Pure. */
import { ProfilePatch, type Profile } from '@console/shared/contracts';
import type { PickedImage } from '@console/shared/ui';

export interface ProfileValues {
  first_name: string;
  last_name: string;
  /** '' follows the community's zone (sent as null). */
  time_zone: string;
}

/** The fields a save can report errors on, in the form's order (the first one with an error takes focus). */
export const PROFILE_FIELDS = ['first_name', 'last_name', 'avatar', 'time_zone'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileErrors = Partial<Record<ProfileField, string>>;

/** The avatar as the form holds it: the stored one, a newly picked image (uploaded on save), or removed. */
export type AvatarChoice = { kind: 'kept' } | { kind: 'picked'; image: PickedImage } | { kind: 'removed' };

/** Avatar types: the images the upload storage accepts (contracts/onboarding.ts IMAGE_TYPES). */
export { IMAGE_TYPES as AVATAR_TYPES, MAX_IMAGE_BYTES as MAX_AVATAR_BYTES } from '@console/shared/contracts';

export function valuesOf(profile: Profile): ProfileValues {
  return { first_name: profile.first_name, last_name: profile.last_name, time_zone: profile.time_zone ?? '' };
}

/** What the preview shows for a choice. */
export function avatarSrc(profile: Profile, avatar: AvatarChoice): string | null {
  if (avatar.kind === 'picked') return avatar.image.dataUrl;
  if (avatar.kind === 'removed') return null;
  return profile.avatar;
}

/**
 * The PATCH body: only what differs from the stored profile (names compared trimmed, as the gateway
 * trims them); the avatar only when it was removed (null) or a new one uploaded (its fileUrl).
 */
export function profilePatchOf(
  profile: Profile,
  values: ProfileValues,
  avatar: string | null | undefined,
): ProfilePatch {
  const patch: ProfilePatch = {};
  if (values.first_name.trim() !== profile.first_name) patch.first_name = values.first_name;
  if (values.last_name.trim() !== profile.last_name) patch.last_name = values.last_name;
  const zone = values.time_zone || null;
  if (zone !== profile.time_zone) patch.time_zone = zone;
  if (avatar !== undefined && avatar !== profile.avatar) patch.avatar = avatar;
  return patch;
}

/** The first message per field of the contract's check (the gateway checks with the same ProfilePatch). */
export function profileErrorsOf(patch: ProfilePatch): ProfileErrors {
  const parsed = ProfilePatch.safeParse(patch);
  if (parsed.success) return {};
  const errors: ProfileErrors = {};
  for (const issue of parsed.error.issues) {
    const field = PROFILE_FIELDS.find((f) => f === issue.path[0]);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** The first field, in the form's order, that has an error. */
export function firstErrorField(errors: ProfileErrors): ProfileField | undefined {
  return PROFILE_FIELDS.find((field) => errors[field]);
}
