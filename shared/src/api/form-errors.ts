import { ApiError } from './client';

export interface FormErrors {
  /** First message per field, from the server's `errors`. */
  fields: Record<string, string>;
  /** A message for the whole form when no field took it. */
  message: string | null;
}

/** Split a failed save into field errors and a form message (shown as text). */
export function formErrorsOf(error: unknown, fallback = 'Something went wrong. Please try again.'): FormErrors {
  if (error instanceof ApiError) {
    const fields = error.fieldErrors();
    const message = Object.keys(fields).length > 0 ? null : error.message || fallback;
    return { fields, message };
  }
  return { fields: {}, message: fallback };
}

/** Spec section 8: what a failed request tells the user: the first message of its errors, else its message. Pure. */
export function failureMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  for (const messages of Object.values(error.body.errors ?? {})) {
    const first = messages.find((message) => message.length > 0);
    if (first) return first;
  }
  return error.body.message || fallback;
}

/** One line for a toast: the server's message, else its first field error, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message || Object.values(error.fieldErrors())[0] || fallback;
  return fallback;
}

/** A failed call split into a form's own fields and one message for the rest. */
export interface SplitFormErrors<F extends string> {
  /** Server messages under the form's fields. */
  fields: Partial<Record<F, string>>;
  /** One message for the whole form: the server's message, or a field error the form has no field for. */
  message: string | null;
}

/** {@link formErrorsOf} split into the form's own `fields` and one message for the rest (the 4xx body {message, errors}). */
export function splitFormErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  fallback: string,
): SplitFormErrors<F> {
  const parsed = formErrorsOf(error, fallback);
  const own: Partial<Record<F, string>> = {};
  const other: string[] = [];
  for (const [field, message] of Object.entries(parsed.fields)) {
    const known = fields.find((f) => f === field);
    if (known) own[known] = message;
    else other.push(message);
  }
  return { fields: own, message: parsed.message ?? other[0] ?? null };
}
