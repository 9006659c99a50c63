import { z } from 'zod';

/** Error body of every 4xx: a message and, for bad input, messages per field. */
export const ApiErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** Pagination of spec section 3. `previous`/`next` are page numbers or null. */
export const Pagination = z.object({
  starting: z.number().int(),
  ending: z.number().int(),
  count: z.number().int(),
  previous: z.number().int().nullable(),
  next: z.number().int().nullable(),
});
export type Pagination = z.infer<typeof Pagination>;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** List query of spec section 3 (widgets, lists, applets, ...). Sort fields are whitelisted per resource. */
export function listQuery<const F extends readonly [string, ...string[]]>(sortFields: F, defaultSort: F[number]) {
  return z.object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    perPage: z.coerce.number().int().min(1).max(1000).default(10),
    sortField: z.enum(sortFields).default(defaultSort as never),
    sortOrder: z.enum(SORT_ORDERS).default('desc'),
    searchString: z.string().max(200).default(''),
  });
}

export function page<T extends z.ZodTypeAny>(record: T) {
  return z.object({ records: z.array(record), pagination: Pagination });
}

export const MessageResponse = z.object({ message: z.string() });
