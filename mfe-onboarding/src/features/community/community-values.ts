/** The community form's values, the text save body and server errors per field. Pure. */
import { ApiError } from '@console/shared/api';
import type { Community, CommunityInput } from '@console/shared/contracts';
import { withOneEntry } from './what-you-get';

export interface CommunityFormValues {
  title: string;
  description: string;
  short_description: string;
  what_you_get: string[];
  slug: string;
  show: boolean;
  public: boolean;
  show_on_carousel: boolean;
  priority: number;
  carousel_priority: number;
}

/** Fields a server error can name, in the order of the form (the first one in error takes focus). */
export const COMMUNITY_ERROR_FIELDS = [
  'title',
  'short_description',
  'what_you_get',
  'description',
  'slug',
  'logo',
  'background',
] as const;
export type CommunityErrorField = (typeof COMMUNITY_ERROR_FIELDS)[number];

export interface CommunityFormErrors {
  fields: Partial<Record<CommunityErrorField, string>>;
  /** The server's message when it named no field of the form. */
  message: string | null;
}

export const NO_ERRORS: CommunityFormErrors = { fields: {}, message: null };
export const SAVE_FAILED = 'The community page could not be saved. Please try again.';

/** Form values of a stored community, or an empty form (a new community takes the tenant's name). */
export function communityToForm(community: Community | null, tenantName: string | null): CommunityFormValues {
  return {
    title: community?.title ?? tenantName ?? '',
    description: community?.description ?? '',
    short_description: community?.short_description ?? '',
    what_you_get: withOneEntry(community?.what_you_get ?? []),
    slug: community?.slug ?? '',
    show: community?.show ?? false,
    public: community?.public ?? false,
    show_on_carousel: community?.show_on_carousel ?? false,
    priority: community?.priority ?? 0,
    carousel_priority: community?.carousel_priority ?? 0,
  };
}

/** The first save's body: the text fields, without image state (no logo, background, alias). */
export function formToTextInput(values: CommunityFormValues): CommunityInput {
  return {
    title: values.title,
    description: values.description,
    short_description: values.short_description,
    what_you_get: values.what_you_get.map((item) => item.trim()).filter((item) => item.length > 0),
    slug: values.slug.trim(),
    show: values.show,
    public: values.public,
    show_on_carousel: values.show_on_carousel,
    priority: values.priority,
    carousel_priority: values.carousel_priority,
  };
}

function errorField(key: string): CommunityErrorField | null {
  // 'what_you_get.2' names an item of the list.
  const base = key.split('.')[0] ?? key;
  return COMMUNITY_ERROR_FIELDS.find((field) => field === base) ?? null;
}

/** A failed save as messages under fields (first per field), else one message for the form. */
export function communityErrorsOf(error: unknown): CommunityFormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, message: SAVE_FAILED };
  const fields: CommunityFormErrors['fields'] = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(error.fieldErrors())) {
    const field = errorField(key);
    if (field) fields[field] ??= message;
    else other.push(message);
  }
  const named = Object.keys(fields).length > 0;
  const message = other.length > 0 ? other.join(' ') : named ? null : error.body.message || SAVE_FAILED;
  return { fields, message };
}

/** The field to focus: the first one in error, in form order. */
export function firstErrorField(errors: CommunityFormErrors): CommunityErrorField | null {
  return COMMUNITY_ERROR_FIELDS.find((field) => errors.fields[field] !== undefined) ?? null;
}
