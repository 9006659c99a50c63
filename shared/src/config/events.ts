/** Window events that cross bundle boundaries. */
export const PRELOAD_ERROR = 'console:preload-error';
export const PLAN_CHANGED = 'planChanged';

export interface PreloadErrorDetail {
  remote: string;
  page: string;
  error: unknown;
}
