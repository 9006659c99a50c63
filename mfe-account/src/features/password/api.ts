/** The change-password call. */
import { api } from '@console/shared/api';
import { TokenResponse, type ChangePasswordBody } from '@console/shared/contracts';

/**
 * POST /v1/auth/change-password: answers a new token for this session; every other session of the
 * user ends. 400 errors.current_password when the current one is wrong, 429 when throttled, 403 while
 * impersonating.
 */
export const changePassword = (body: ChangePasswordBody) => api.post('/v1/auth/change-password', TokenResponse, body);
