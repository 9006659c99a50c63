/** The widget form (create and edit): client checks from the contract and server errors per field. Pure. */
import { ApiError } from '@console/shared/api';
import { WidgetInput, type WidgetType } from '@console/shared/contracts';

export interface WidgetFormValues {
  type: WidgetType;
  target_id: string;
  url: string;
}

export const EMPTY_WIDGET_FORM: WidgetFormValues = { type: 'Subscription Widget', target_id: '', url: '' };

/** The form's values: a widget's own when editing one, empty for a new one. */
export function widgetFormValues(
  widget: Pick<WidgetFormValues, 'type' | 'target_id' | 'url'> | null,
): WidgetFormValues {
  return widget ? { type: widget.type, target_id: widget.target_id, url: widget.url } : EMPTY_WIDGET_FORM;
}

export const WIDGET_FORM_FIELDS = ['type', 'target_id', 'url'] as const;
export type WidgetFormField = (typeof WIDGET_FORM_FIELDS)[number];

export interface WidgetFormErrors {
  fields: Partial<Record<WidgetFormField, string>>;
  /** The server's message (also toasted), or messages of other fields. */
  message: string | null;
}

export const NO_WIDGET_ERRORS: WidgetFormErrors = { fields: {}, message: null };
export const WIDGET_SAVE_FAILED = 'The widget could not be saved. Please try again.';

function isFormField(field: string): field is WidgetFormField {
  return (WIDGET_FORM_FIELDS as readonly string[]).includes(field);
}

/** The body to send, or the contract's first message per field ('Choose a list.'). */
export function parseWidgetForm(
  values: WidgetFormValues,
): { ok: true; input: WidgetInput } | { ok: false; errors: WidgetFormErrors } {
  const parsed = WidgetInput.safeParse(values);
  if (parsed.success) return { ok: true, input: parsed.data };
  const fields: WidgetFormErrors['fields'] = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (isFormField(field)) fields[field] ??= issue.message;
  }
  return { ok: false, errors: { fields, message: null } };
}

/** A failed save: field messages under their fields, and the server's message for the error toast. */
export function widgetErrorsOf(error: unknown): WidgetFormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, message: WIDGET_SAVE_FAILED };
  const fields: WidgetFormErrors['fields'] = {};
  const other: string[] = [];
  for (const [field, message] of Object.entries(error.fieldErrors())) {
    if (isFormField(field)) fields[field] = message;
    else other.push(message);
  }
  const message = error.body.message || other[0] || (Object.keys(fields).length > 0 ? null : WIDGET_SAVE_FAILED);
  return { fields, message };
}
