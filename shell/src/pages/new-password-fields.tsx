import type { RefObject } from 'react';
import { TextField } from '@console/shared/ui';
import { LazyStrengthMeter } from '../components/lazy-strength-meter';

const NO_INPUTS: readonly string[] = [];

/** The rule of every new password (contracts/auth.ts NewPassword), shown under the field. */
export const PASSWORD_RULE = 'Use at least 10 characters.';
export const PASSWORDS_DIFFER = 'The passwords do not match.';

/** The repeat's error, or null when both entries match. */
export function repeatError(password: string, repeat: string): string | null {
  return password === repeat ? null : PASSWORDS_DIFFER;
}

/**
 * A new password and its repeat, as the bare screens ask for one (set a new password, accept an
 * invitation): the rule under the first field, the strength meter saying why a password is weak
 * (@console/shared/passwords, the rule the gateway applies), errors under each.
 */
export function NewPasswordFields({
  labels,
  password,
  repeat,
  onPassword,
  onRepeat,
  errors,
  passwordRef,
  userInputs = NO_INPUTS,
}: {
  labels: { password: string; repeat: string };
  password: string;
  repeat: string;
  onPassword: (value: string) => void;
  onRepeat: (value: string) => void;
  errors: { password?: string; repeat?: string };
  passwordRef?: RefObject<HTMLInputElement | null>;
  /** Words the person is known by (e-mail, names, community): weak parts of a password. */
  userInputs?: readonly (string | null | undefined)[];
}) {
  return (
    <>
      <TextField
        ref={passwordRef}
        label={labels.password}
        type="password"
        autoComplete="new-password"
        required
        maxLength={200}
        value={password}
        // An error about this field takes the rule's place rather than repeating it.
        hint={errors.password ? undefined : PASSWORD_RULE}
        error={errors.password}
        onChange={(e) => onPassword(e.target.value)}
      />
      <LazyStrengthMeter password={password} userInputs={userInputs} />
      <TextField
        label={labels.repeat}
        type="password"
        autoComplete="new-password"
        required
        maxLength={200}
        value={repeat}
        error={errors.repeat}
        onChange={(e) => onRepeat(e.target.value)}
      />
    </>
  );
}
