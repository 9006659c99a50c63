/** Window events that cross bundle boundaries. */
export const PRELOAD_ERROR = 'console:preload-error';
export const PLAN_CHANGED = 'planChanged';
/** The session user was verified and loaded again (refreshPermissions): the shell re-applies its guard. */
export const SESSION_REFRESHED = 'console:session-refreshed';

export interface PreloadErrorDetail {
  remote: string;
  page: string;
  error: unknown;
}
