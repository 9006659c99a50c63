/**
 * Path parameters. Ids are checked by the stores: anything not the tenant's is 404; text PostgreSQL
 * cannot hold (a NUL, a lone surrogate) is a 400 naming the parameter before any query runs.
 */
import * as z from 'zod/mini';
import { idText } from '../contracts';

export const IdParams = z.object({ id: idText() });
