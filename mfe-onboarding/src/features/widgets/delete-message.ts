import { ApiError } from '@console/shared/api';

export const DELETE_FAILED = 'The widget could not be deleted. Please try again.';

/** Spec section 8: the first message of the errors array, or the message. Pure. */
export function deleteErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return DELETE_FAILED;
  for (const messages of Object.values(error.body.errors ?? {})) {
    const first = messages.find((message) => message.length > 0);
    if (first) return first;
  }
  return error.body.message || DELETE_FAILED;
}
