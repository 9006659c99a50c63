import { splitFormErrors, type SplitFormErrors } from '@console/shared/api';

export type FormErrors<F extends string> = SplitFormErrors<F>;

export const noErrors = <F extends string>(): FormErrors<F> => ({ fields: {}, message: null });

/**
 * Spec section 8: a tenant save, settings, delete or resend returns the server's error body to the
 * caller; it is shown as field errors next to the fields and one message for the rest.
 */
export const formErrorsFor = splitFormErrors;

export function FormMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}
