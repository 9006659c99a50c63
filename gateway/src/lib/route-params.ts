/** Path parameters of the audience routes. Ids are checked by the stores: anything not the tenant's is 404. */
import * as z from 'zod/mini';

export const IdParams = z.object({ id: z.string().check(z.maxLength(64)) });
