/**
 * The add/edit contact form as plain values: from a contact, to the ContactInput the gateway takes,
 * and the server's field errors sorted into the fields the form shows. Pure functions, no React.
 */
import type {
  AttributeType,
  AttributeValue,
  Contact,
  ContactInput,
  ContactStatus,
  CustomAttribute,
} from '@console/shared/contracts';

export type FormAttribute = Pick<CustomAttribute, 'key' | 'name' | 'type'>;

export interface ContactFormValues {
  email: string;
  wallet: string;
  first_name: string;
  last_name: string;
  status: ContactStatus;
  /** List ids the contact belongs to. */
  lists: readonly string[];
  /** Text of each attribute input by key; '' is no value. Booleans are 'true' / 'false'. */
  attributes: Readonly<Record<string, string>>;
}

export function emptyContactForm(lists: readonly string[] = []): ContactFormValues {
  return { email: '', wallet: '', first_name: '', last_name: '', status: 'subscribed', lists, attributes: {} };
}

/** An attribute value as its input shows it. */
export function attributeText(value: AttributeValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

export function contactToForm(contact: Contact): ContactFormValues {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(contact.attributes)) attributes[key] = attributeText(value);
  return {
    email: contact.email ?? '',
    wallet: contact.wallet ?? '',
    first_name: contact.first_name,
    last_name: contact.last_name,
    status: contact.status,
    lists: contact.lists,
    attributes,
  };
}

/**
 * An attribute input's text as a wire value: '' is null (no value); numbers and booleans are typed
 * when they parse, otherwise the text goes as typed so the server names the problem under the field.
 */
export function attributeValue(type: AttributeType, text: string): AttributeValue {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (type === 'number') {
    const value = Number(trimmed);
    return Number.isFinite(value) ? value : trimmed;
  }
  if (type === 'boolean') {
    if (trimmed === 'true') return true;
    if (trimmed === 'false') return false;
  }
  return trimmed;
}

/**
 * The body of POST /v1/contacts (`create`) or PATCH /v1/contacts/{id} (`edit`). Emptied e-mail and
 * wallet go as null (edit clears them); a new contact sends only the attributes that have a value,
 * an edit sends every attribute (null clears one).
 */
export function formToInput(
  values: ContactFormValues,
  attributes: readonly FormAttribute[],
  mode: 'create' | 'edit',
): ContactInput {
  const email = values.email.trim();
  const wallet = values.wallet.trim();
  const attributeValues: Record<string, AttributeValue> = {};
  for (const attribute of attributes) {
    const value = attributeValue(attribute.type, values.attributes[attribute.key] ?? '');
    if (value !== null || mode === 'edit') attributeValues[attribute.key] = value;
  }
  return {
    email: email === '' ? null : email,
    wallet: wallet === '' ? null : wallet,
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    status: values.status,
    lists: [...values.lists],
    attributes: attributeValues,
  };
}

/** Fields of the form that show their own server error. */
export const CONTACT_FORM_FIELDS = ['email', 'wallet', 'first_name', 'last_name', 'status', 'lists'] as const;
export const ATTRIBUTE_ERROR_PREFIX = 'attributes.';

export interface SortedErrors {
  /** By form field: contact fields by name, attributes as `attributes.<key>`. */
  fields: Record<string, string>;
  /** Messages of fields the form does not show (shown above the buttons). */
  other: string[];
}

/** Server field errors under the fields the form has; the rest as form-level messages. */
export function sortFieldErrors(
  errors: Readonly<Record<string, string>>,
  attributeKeys: readonly string[],
): SortedErrors {
  const known = new Set<string>([
    ...CONTACT_FORM_FIELDS,
    ...attributeKeys.map((key) => `${ATTRIBUTE_ERROR_PREFIX}${key}`),
  ]);
  const sorted: SortedErrors = { fields: {}, other: [] };
  for (const [field, message] of Object.entries(errors)) {
    if (known.has(field)) sorted.fields[field] = message;
    else sorted.other.push(message);
  }
  return sorted;
}
