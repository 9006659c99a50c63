import { formErrorsOf } from '@console/shared/api';

export interface FormErrors<F extends string> {
  /** The server's (or our own) messages under the form's fields. */
  fields: Partial<Record<F, string>>;
  /** One message for the whole form: the server's message, or a field error the form has no field for. */
  message: string | null;
}

export const noErrors = <F extends string>(): FormErrors<F> => ({ fields: {}, message: null });

/**
 * Spec section 8: a tenant save, settings, delete or resend returns the server's error body to the
 * caller; it is shown as field errors next to the fields and one message for the rest.
 */
export function formErrorsFor<F extends string>(error: unknown, fields: readonly F[], fallback: string): FormErrors<F> {
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

export function FormMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}
