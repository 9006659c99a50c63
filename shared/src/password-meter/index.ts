/**
 * The strength meter of every password-setting form (set a new password, accept an invitation, sign
 * up, change password): the rule of `@console/shared/passwords`, its checker loaded when the meter
 * first mounts.
 */
export * from './use-password-strength';
export * from './strength-meter';
