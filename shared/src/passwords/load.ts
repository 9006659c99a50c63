/**
 * The password checker with zxcvbn and its common-password dictionary (@zxcvbn-ts/language-common,
 * hundreds of kB): loaded by dynamic import as one chunk the first time a page with a password-setting
 * form asks, so the sign-in screen and every other page never download it. Loaded once; a failed load
 * is tried again on the next call.
 */
import { passwordVerdict, type PasswordChecker } from './rule';
import { PASSWORD_TEXTS } from './texts';

let loading: Promise<PasswordChecker> | null = null;

export function loadPasswordChecker(): Promise<PasswordChecker> {
  loading ??= Promise.all([
    import(/* webpackChunkName: "zxcvbn" */ '@zxcvbn-ts/core'),
    import(/* webpackChunkName: "zxcvbn" */ '@zxcvbn-ts/language-common'),
  ]).then(
    ([core, common]) => {
      const zxcvbn = new core.ZxcvbnFactory({
        translations: PASSWORD_TEXTS,
        dictionary: { ...common.dictionary },
        graphs: common.adjacencyGraphs,
      });
      return (password, userInputs = []) => passwordVerdict(zxcvbn.check(password, [...userInputs]));
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
