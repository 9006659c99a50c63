import { loadPasswordChecker, MIN_PASSWORD_SCORE, passwordProblem, passwordVerdict, userInputsOf } from './index';

// NIST SP 800-63B section 5.1.1.2: commonly used, repetitive or sequential and context-specific
// passwords are refused; the reason comes from zxcvbn's feedback.
describe('the new-password rule', () => {
  it.each([
    ['aaaaaaaaaa', [], 'Repeated characters like "aaa" are easy to guess.'],
    ['abcabcabcabc', [], 'Repeated patterns like "abcabcabc" are easy to guess.'],
    ['1234567890', [], 'This password is in a list of passwords commonly used on other websites.'],
    ['password1234', [], 'This password is too similar to passwords commonly used on other websites.'],
    ['qwertyuiop', [], 'This password is in a list of passwords commonly used on other websites.'],
    [
      'owner@acme.test',
      ['owner@acme.test', 'Olivia', 'Owner', 'Acme'],
      'Parts of your name, e-mail address or community name are easy to guess.',
    ],
    [
      'Acme Rockets',
      ['me@example.test', 'Acme Rockets'],
      'Parts of your name, e-mail address or community name are easy to guess.',
    ],
  ])('refuses %j with its reason', async (password, known, reason) => {
    const check = await loadPasswordChecker();
    const verdict = check(password, userInputsOf(known));
    expect(verdict.acceptable).toBe(false);
    expect(verdict.score).toBeLessThan(MIN_PASSWORD_SCORE);
    expect(verdict.reason).toBe(reason);
    expect(passwordProblem(verdict)).toBe(`${reason} ${verdict.suggestions[0] ?? ''}`.trim());
  });

  it.each(['correct horse battery staple', 'kT9#vQ2!xLm8@pZ', 'owner-pass-2026', 'a-brand-new-pass-2026'])(
    'accepts %j',
    async (password) => {
      const check = await loadPasswordChecker();
      const verdict = check(password, userInputsOf(['owner@acme.test', 'Olivia', 'Owner', 'Acme']));
      expect(verdict).toMatchObject({ acceptable: true, reason: null });
      expect(passwordProblem(verdict)).toBeNull();
    },
  );

  it('decides on the score alone, with a reason even when zxcvbn names none', () => {
    const none = { warning: null, suggestions: [] };
    expect(passwordVerdict({ score: 2, feedback: none })).toEqual({
      score: 2,
      acceptable: false,
      reason: 'This password is too easy to guess.',
      suggestions: [],
    });
    expect(passwordVerdict({ score: 3, feedback: none }).acceptable).toBe(true);
    expect(passwordVerdict({ score: 4, feedback: { warning: 'x', suggestions: ['y'] } }).reason).toBeNull();
    expect(passwordVerdict({ score: 7, feedback: none }).score).toBe(4);
    expect(passwordVerdict({ score: -1, feedback: none }).score).toBe(0);
  });

  it('takes words from e-mail addresses and names, in lower case', () => {
    expect(userInputsOf(['Lena.Lab@Example.TEST', null, '', 'Lab Rats', undefined])).toEqual([
      'lena.lab@example.test',
      'lena',
      'lab',
      'example',
      'test',
      'lab rats',
      'rats',
    ]);
  });
});
