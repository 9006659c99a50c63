/** The create/edit list form: client checks from the contract, and server errors sorted per field. Pure. */
import { ListInput } from '@console/shared/contracts';

export interface ListFormValues {
  name: string;
  description: string;
}

export const LIST_FORM_FIELDS = ['name', 'description'] as const;

export interface ListFormErrors {
  fields: Partial<Record<(typeof LIST_FORM_FIELDS)[number], string>>;
  /** Messages of other fields, or the server's message when it named no field. */
  other: string[];
}

function isFormField(field: string): field is (typeof LIST_FORM_FIELDS)[number] {
  return (LIST_FORM_FIELDS as readonly string[]).includes(field);
}

/** Field errors (first message per field) sorted into the form's fields and the rest. */
export function sortListErrors(errors: Readonly<Record<string, string>>): ListFormErrors {
  const sorted: ListFormErrors = { fields: {}, other: [] };
  for (const [field, message] of Object.entries(errors)) {
    if (isFormField(field)) sorted.fields[field] = message;
    else sorted.other.push(message);
  }
  return sorted;
}

/** The body to send, or the contract's messages per field ('Enter a name.'). */
export function parseListForm(
  values: ListFormValues,
): { ok: true; input: ListInput } | { ok: false; errors: Record<string, string> } {
  const parsed = ListInput.safeParse({ name: values.name, description: values.description.trim() });
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'name');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
