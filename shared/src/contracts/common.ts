// zod/mini: the same runtime as zod 4 at a fraction of the size in the console's start-up bundle
// (bench/README.md, "The console's bundles"). The gateway's Fastify provider reads it through zod core.
import * as z from 'zod/mini';

// In the browser the console's CSP forbids eval: parse without zod's JIT (which would try
// `new Function`). Every schema is defined after this line runs. The gateway keeps the JIT.
if (typeof window !== 'undefined') z.config({ jitless: true });

/** Error body of every 4xx: a message and, for bad input, messages per field. */
export const ApiErrorBody = z.object({
  message: z.string(),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** Pagination of spec section 3. `previous`/`next` are page numbers or null. */
export const Pagination = z.object({
  starting: z.int(),
  ending: z.int(),
  count: z.int(),
  previous: z.nullable(z.int()),
  next: z.nullable(z.int()),
});
export type Pagination = z.infer<typeof Pagination>;

/**
 * Text that PostgreSQL can store as given: no NUL or other control characters (tab, line feed and
 * carriage return are fine) and no lone UTF-16 surrogates (JSON can carry them; PostgreSQL cannot
 * store NUL, and a lone surrogate would be changed to U+FFFD without a word). Every free-text field
 * of every contract is built from this, so bad text is a 400 that names the field.
 */
const UNSTORABLE_TEXT =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNSTORABLE_TEXT_MESSAGE = 'Remove control characters and broken symbols from this text.';

/** True when PostgreSQL can store the text as given (see `text`). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_TEXT.test(value);
}

export function text(maxLength: number, tooLong?: string) {
  return z
    .string()
    .check(
      z.refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
      tooLong === undefined ? z.maxLength(maxLength) : z.maxLength(maxLength, tooLong),
    );
}

/** An id in a path, query or body: text of at most 64 characters (the stores answer 404 for anything unknown). */
export const idText = () => text(64);

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** List query of spec section 3 (widgets, lists, applets, ...). Sort fields are whitelisted per resource. */
export function listQuery<const F extends readonly [string, ...string[]]>(sortFields: F, defaultSort: F[number]) {
  return z.object({
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1),
    perPage: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000)), 10),
    sortField: z._default(z.enum(sortFields), defaultSort as never),
    sortOrder: z._default(z.enum(SORT_ORDERS), 'desc'),
    searchString: z._default(text(200), ''),
  });
}

export function page<T extends z.ZodMiniType>(record: T) {
  return z.object({ records: z.array(record), pagination: Pagination });
}

export const MessageResponse = z.object({ message: z.string() });
/** A 204 answer: no body to read. */
export const NoContent = z.unknown();
