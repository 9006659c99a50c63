import { useEffect, useMemo, useState } from 'react';
import { loadStrengthEstimator, type StrengthEstimator, type StrengthScore } from './strength';

export type Strength =
  | { status: 'loading' }
  /** The estimator could not be loaded: the page works without the meter. */
  | { status: 'unavailable' }
  /** `score` is null for an empty password. */
  | { status: 'ready'; score: StrengthScore | null };

/** Loads the estimator when the first component using it mounts, then scores `password` on every change. */
export function useStrength(password: string, userInputs: readonly string[]): Strength {
  const [estimator, setEstimator] = useState<StrengthEstimator | 'loading' | 'unavailable'>('loading');
  useEffect(() => {
    let live = true;
    loadStrengthEstimator().then(
      (loaded) => {
        if (live) setEstimator(() => loaded);
      },
      () => {
        if (live) setEstimator('unavailable');
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => {
    if (estimator === 'loading' || estimator === 'unavailable') return { status: estimator };
    return { status: 'ready', score: password ? estimator(password, userInputs) : null };
  }, [estimator, password, userInputs]);
}
