/**
 * A contact as the API receives it (POST and PATCH /v1/contacts), checked field by field with the
 * rules of contact-fields.ts. Pure: the checks that need the database (lists of the tenant,
 * uniqueness) are in contact-store.ts.
 */
import type { AttributeValue, ContactInput, ContactStatus } from '../../contracts';
import type { CustomAttributeRow } from '../../db/schema';
import type { FieldErrors } from '../../errors';
import { MESSAGES, normaliseEmail, normaliseWallet, parseAttributeValue } from './contact-fields';

/** Message of a 400 with field errors (the same as the gateway's schema validation). */
export const UNKNOWN_ATTRIBUTE = 'There is no custom attribute with this key.';

/** What to store; a field left undefined is not changed (PATCH) or takes its default (POST). */
export interface ContactValues {
  email?: string | null;
  wallet?: string | null;
  firstName?: string;
  lastName?: string;
  status?: ContactStatus;
  /** Values to set, by attribute id. */
  setAttributes: Record<string, Exclude<AttributeValue, null>>;
  /** Attribute ids whose value is cleared. */
  clearAttributes: string[];
}

export interface ParsedContactInput {
  values: ContactValues;
  errors: FieldErrors;
}

/** Normalises every given field; errors by field key (`email`, `wallet`, `attributes.<key>`). */
export function parseContactInput(
  input: ContactInput,
  attributes: readonly Pick<CustomAttributeRow, 'id' | 'key' | 'type'>[],
): ParsedContactInput {
  const errors: FieldErrors = {};
  const values: ContactValues = { setAttributes: {}, clearAttributes: [] };
  if (input.email !== undefined) {
    const r = normaliseEmail(input.email);
    if (r.ok) values.email = r.value;
    else errors.email = [r.reason];
  }
  if (input.wallet !== undefined) {
    const r = normaliseWallet(input.wallet);
    if (r.ok) values.wallet = r.value;
    else errors.wallet = [r.reason];
  }
  if (input.first_name !== undefined) values.firstName = input.first_name.trim();
  if (input.last_name !== undefined) values.lastName = input.last_name.trim();
  if (input.status !== undefined) values.status = input.status;
  for (const [key, raw] of Object.entries(input.attributes ?? {})) {
    const attribute = attributes.find((a) => a.key === key);
    if (!attribute) {
      errors[`attributes.${key}`] = [UNKNOWN_ATTRIBUTE];
      continue;
    }
    const r = parseAttributeValue(attribute.type, raw);
    if (!r.ok) errors[`attributes.${key}`] = [r.reason];
    else if (r.value === null) values.clearAttributes.push(attribute.id);
    else values.setAttributes[attribute.id] = r.value;
  }
  return { values, errors };
}

/**
 * At least one of e-mail and wallet, after the change: `current` is the stored contact (PATCH) or
 * null (POST). Adds MESSAGES.identity on both fields when neither would be left.
 */
export function checkIdentity(
  values: Pick<ContactValues, 'email' | 'wallet'>,
  current: { email: string | null; wallet: string | null } | null,
  errors: FieldErrors,
): void {
  if (errors.email || errors.wallet) return;
  const email = values.email !== undefined ? values.email : (current?.email ?? null);
  const wallet = values.wallet !== undefined ? values.wallet : (current?.wallet ?? null);
  if (email === null && wallet === null) {
    errors.email = [MESSAGES.identity];
    errors.wallet = [MESSAGES.identity];
  }
}
