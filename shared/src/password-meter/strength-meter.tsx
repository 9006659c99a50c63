import { PASSWORD_SCORE_LABELS, type PasswordScore } from '@console/shared/passwords';
import { usePasswordStrength, type PasswordStrength } from './use-password-strength';

const FILLED: Record<PasswordScore, string> = {
  0: 'bg-red-500',
  1: 'bg-red-500',
  2: 'bg-amber-500',
  3: 'bg-emerald-500',
  4: 'bg-emerald-600',
};

/**
 * The strength of a new password as a meter (0 to 4, its word as the value text) and four bars, then,
 * for a password the rule refuses (@console/shared/passwords), why and how to make it stronger
 * (zxcvbn's feedback); nothing while the password is empty or the checker is not there.
 */
export function StrengthMeter({ strength }: { strength: PasswordStrength }) {
  if (strength.status !== 'ready' || strength.verdict === null) return null;
  const { score, reason, suggestions } = strength.verdict;
  const label = PASSWORD_SCORE_LABELS[score];
  return (
    <div className="mt-2">
      <div
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={score}
        aria-valuetext={label}
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
      {reason && (
        // Announced as it changes, politely: the person is typing.
        <div aria-live="polite" className="mt-1 text-xs text-slate-700" data-testid="password-feedback">
          <p>{reason}</p>
          {suggestions.map((s) => (
            <p key={s}>{s}</p>
          ))}
        </div>
      )}
    </div>
  );
}

/** The meter for `password`, judged with the words the person is known by (`userInputs`). */
export function PasswordStrengthMeter({
  password,
  userInputs,
}: {
  password: string;
  userInputs: readonly (string | null | undefined)[];
}) {
  return <StrengthMeter strength={usePasswordStrength(password, userInputs)} />;
}
