import { lazy, Suspense } from 'react';

/**
 * The password strength meter, loaded (with the password rule's dictionary) only when a
 * password-setting form shows it: the sign-in screen's start-up does not carry it.
 */
const Meter = lazy(() => import('@console/shared/password-meter').then((m) => ({ default: m.PasswordStrengthMeter })));

export function LazyStrengthMeter({
  password,
  userInputs,
}: {
  password: string;
  userInputs: readonly (string | null | undefined)[];
}) {
  return (
    <Suspense fallback={null}>
      <Meter password={password} userInputs={userInputs} />
    </Suspense>
  );
}
