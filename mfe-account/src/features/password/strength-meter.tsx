import { STRENGTH_LABELS, type StrengthScore } from './strength';
import type { Strength } from './use-strength';

const FILLED: Record<StrengthScore, string> = {
  0: 'bg-red-500',
  1: 'bg-red-500',
  2: 'bg-amber-500',
  3: 'bg-emerald-500',
  4: 'bg-emerald-600',
};

/**
 * The strength of the new password as a meter (0 to 4, its word as the value text) and four bars;
 * nothing while the password is empty or the estimator is not there.
 */
export function StrengthMeter({ strength }: { strength: Strength }) {
  if (strength.status !== 'ready' || strength.score === null) return null;
  const { score } = strength;
  const label = STRENGTH_LABELS[score];
  return (
    <div
      role="meter"
      aria-label="Password strength"
      aria-valuemin={0}
      aria-valuemax={4}
      aria-valuenow={score}
      aria-valuetext={label}
      className="mt-2"
    >
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((bar) => (
          <span
            key={bar}
            className={`h-1.5 flex-1 rounded-full ${bar <= Math.max(score, 1) ? FILLED[score] : 'bg-slate-200'}`}
          />
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-600" aria-hidden="true">
        Strength: {label}
      </p>
    </div>
  );
}
