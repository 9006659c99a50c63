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

/** One line for a toast: the server's message, else its first field error, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message || Object.values(error.fieldErrors())[0] || fallback;
  return fallback;
}
