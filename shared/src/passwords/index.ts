/**
 * The new-password rule (NIST SP 800-63B): pure verdicts on zxcvbn's estimate, and the lazily loaded
 * checker. Free of React: the gateway uses it too.
 */
export * from './rule';
export * from './load';
export { PASSWORD_TEXTS } from './texts';
