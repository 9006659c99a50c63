/** The change-password form's own check before sending: the contract's rules, and the repeat. Pure. */
import { ChangePasswordBody } from '@console/shared/contracts';

/** The rule of a new password (contracts/auth.ts NewPassword), shown under the field. */
export const PASSWORD_RULE = 'Use at least 10 characters.';
/** The same words as the reset-password page. */
export const PASSWORDS_DIFFER = 'The passwords do not match.';

export interface ChangePasswordValues {
  current_password: string;
  new_password: string;
  repeat: string;
}
export type ChangePasswordField = keyof ChangePasswordValues;
export type ChangePasswordErrors = Partial<Record<ChangePasswordField, string>>;

/** The first message per field: ChangePasswordBody (the gateway validates with it too), then the repeat. */
export function changePasswordErrors(values: ChangePasswordValues): ChangePasswordErrors {
  const errors: ChangePasswordErrors = {};
  const parsed = ChangePasswordBody.safeParse({
    current_password: values.current_password,
    new_password: values.new_password,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'current_password' || field === 'new_password') && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!errors.new_password && values.repeat !== values.new_password) errors.repeat = PASSWORDS_DIFFER;
  return errors;
}
