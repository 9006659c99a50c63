import { useEffect, useMemo, useState } from 'react';
import {
  loadPasswordChecker,
  userInputsOf,
  type PasswordChecker,
  type PasswordVerdict,
} from '@console/shared/passwords';

export type PasswordStrength =
  | { status: 'loading' }
  /** The checker could not be loaded: the form works without the meter (the gateway still judges). */
  | { status: 'unavailable' }
  /** `verdict` is null for an empty password. */
  | { status: 'ready'; verdict: PasswordVerdict | null };

/**
 * Loads the checker when the first component using it mounts, then judges `password` on every change.
 * `userInputs` are what the person is known by (e-mail, names, community), as the gateway passes them.
 */
export function usePasswordStrength(
  password: string,
  userInputs: readonly (string | null | undefined)[],
): PasswordStrength {
  const [checker, setChecker] = useState<PasswordChecker | 'loading' | 'unavailable'>('loading');
  useEffect(() => {
    let live = true;
    loadPasswordChecker().then(
      (loaded) => {
        if (live) setChecker(() => loaded);
      },
      () => {
        if (live) setChecker('unavailable');
      },
    );
    return () => {
      live = false;
    };
  }, []);
  const key = JSON.stringify(userInputs);
  const words = useMemo(() => userInputsOf(JSON.parse(key) as (string | null)[]), [key]);
  return useMemo(() => {
    if (checker === 'loading' || checker === 'unavailable') return { status: checker };
    return { status: 'ready', verdict: password ? checker(password, words) : null };
  }, [checker, password, words]);
}
