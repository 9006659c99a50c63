import { formErrorsOf } from '@console/shared/api';

export interface DialogErrors<F extends string> {
  /** Server (or own) messages under the dialog's fields. */
  fields: Partial<Record<F, string>>;
  /** One message for the whole dialog: the server's message, or a field error the dialog has no field for. */
  message: string | null;
}

/** A failed call split into the dialog's own fields and one message for the rest (the 4xx body {message, errors}). */
export function dialogErrorsOf<F extends string>(
  error: unknown,
  fields: readonly F[],
  fallback: string,
): DialogErrors<F> {
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
