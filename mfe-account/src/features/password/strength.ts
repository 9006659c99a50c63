/**
 * Password strength for the change-password page's meter: zxcvbn-ts with its common dictionaries
 * (about 400 kB before compression), loaded by dynamic import as one chunk the first time the page asks,
 * so no other route downloads it. The meter only advises: the rule the gateway enforces is the length
 * (contracts/auth.ts NewPassword: at least 10 characters).
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** zxcvbn's five scores in words. */
export const STRENGTH_LABELS: Record<StrengthScore, string> = {
  0: 'Very weak',
  1: 'Weak',
  2: 'Fair',
  3: 'Good',
  4: 'Strong',
};

/** Scores a password; `userInputs` (e-mail, names, community) count as guessable words. */
export type StrengthEstimator = (password: string, userInputs: readonly string[]) => StrengthScore;

let loading: Promise<StrengthEstimator> | null = null;

/** The estimator, loaded once; a failed load is tried again on the next call. */
export function loadStrengthEstimator(): Promise<StrengthEstimator> {
  loading ??= Promise.all([
    import(/* webpackChunkName: "zxcvbn" */ '@zxcvbn-ts/core'),
    import(/* webpackChunkName: "zxcvbn" */ '@zxcvbn-ts/language-common'),
  ]).then(
    ([core, common]) => {
      const zxcvbn = new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary },
        graphs: common.adjacencyGraphs,
      });
      return (password: string, userInputs: readonly string[]) => zxcvbn.check(password, [...userInputs]).score;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
