/**
 * The rule for a new password (NIST SP 800-63B section 5.1.1.2): besides the length (contracts/auth.ts
 * NewPassword: 10 to 200 characters), a password is refused when it is easy to guess: commonly used
 * (zxcvbn's common-password dictionary, @zxcvbn-ts/language-common), repetitive or sequential
 * ("aaaaaaaaaa", "1234567890"), a keyboard pattern, or made of the person's own name, e-mail address or
 * community. zxcvbn scores the guesses such a password needs from 0 to 4; a new password needs
 * MIN_PASSWORD_SCORE. Pure: the estimator is handed in (load.ts loads the one the console and the
 * gateway use).
 */
import type { FeedbackType } from '@zxcvbn-ts/core';

export type PasswordScore = 0 | 1 | 2 | 3 | 4;

/** zxcvbn's 3, "safely unguessable": about 10^10 guesses or more. */
export const MIN_PASSWORD_SCORE: PasswordScore = 3;

/** The reason given when zxcvbn names no particular weakness. */
export const TOO_EASY_TO_GUESS = 'This password is too easy to guess.';

/** zxcvbn's five scores in words (the strength meter's value text). */
export const PASSWORD_SCORE_LABELS: Record<PasswordScore, string> = {
  0: 'Very weak',
  1: 'Weak',
  2: 'Fair',
  3: 'Good',
  4: 'Strong',
};

/** What zxcvbn answers about one password (the part the rule reads). */
export interface StrengthEstimate {
  score: number;
  feedback: FeedbackType;
}

export interface PasswordVerdict {
  score: PasswordScore;
  /** Strong enough to be set. */
  acceptable: boolean;
  /** Why it is refused (null when acceptable). */
  reason: string | null;
  /** How to make it stronger (zxcvbn's suggestions; may be empty). */
  suggestions: readonly string[];
}

function scoreOf(score: number): PasswordScore {
  if (score <= 0) return 0;
  if (score >= 4) return 4;
  return Math.floor(score) as PasswordScore;
}

/** The verdict on one estimate. */
export function passwordVerdict(estimate: StrengthEstimate): PasswordVerdict {
  const score = scoreOf(estimate.score);
  const acceptable = score >= MIN_PASSWORD_SCORE;
  return {
    score,
    acceptable,
    reason: acceptable ? null : estimate.feedback.warning || TOO_EASY_TO_GUESS,
    suggestions: estimate.feedback.suggestions,
  };
}

/**
 * The one sentence a refused password gets (the gateway's field error): the reason, then the first
 * suggestion. Null for an acceptable password.
 */
export function passwordProblem(verdict: PasswordVerdict): string | null {
  if (verdict.acceptable || !verdict.reason) return null;
  const [advice] = verdict.suggestions;
  return advice ? `${verdict.reason} ${advice}` : verdict.reason;
}

/** Judges a password; `userInputs` (e-mail, names, community) are words the person is known by. */
export type PasswordChecker = (password: string, userInputs?: readonly string[]) => PasswordVerdict;

/** Lower-case words of the person's e-mail address and names, as zxcvbn's user inputs. */
export function userInputsOf(values: readonly (string | null | undefined)[]): string[] {
  const words = new Set<string>();
  for (const value of values) {
    if (!value) continue;
    const lower = value.toLowerCase().trim();
    if (lower) words.add(lower);
    for (const part of lower.split(/[^\p{L}\p{N}]+/u)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}
