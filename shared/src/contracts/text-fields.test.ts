// Every text field of every request contract refuses what PostgreSQL cannot store as given (a NUL, other
// control characters, lone surrogates): each is built from `text()` or is a format (e-mail, uuid, enum,
// pattern) that refuses them. Walks the schemas, so a new request contract is checked without listing it.
import * as z from 'zod/mini';
import * as contracts from '@console/shared/contracts';
import { text, UNSTORABLE_TEXT_MESSAGE } from '@console/shared/contracts/core';

type Schema = z.ZodMiniType;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && '_zod' in value;

/** Request contracts by name (answers are named Response, Page, Summary...: they only describe what the gateway sends). */
const REQUEST_NAME = /(Body|Input|Query|Request|Update|Create|Duplicate|Rename|TestSend|Filter|Selection)$/;
const REQUEST_PARTS = ['Email', 'Password', 'NewPassword', 'AttributeValueInput', 'ImportTarget', 'SegmentGroup'];
/** Named like a request, but an answer. */
const ANSWERS = ['ApiErrorBody'];

const BAD = ['abc\u0000def', 'abc\ud800def', 'abc\udc00def', 'abc\u0001def', 'abc\u007fdef'];

/** Paths of the text nodes of a schema that accept a bad string. */
function acceptingTextNodes(root: Schema): string[] {
  const seen = new Set<Schema>();
  const found: string[] = [];
  const visit = (schema: Schema, path: string) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
    const accepts = () => BAD.filter((bad) => z.safeParse(schema, bad).success);
    const child = (key: string, suffix = '') => {
      const next = def[key];
      if (isSchema(next)) visit(next, path + suffix);
    };
    switch (def.type) {
      case 'string':
        if (accepts().length) found.push(`${path || '(root)'} accepts ${JSON.stringify(accepts())}`);
        return;
      case 'pipe': {
        // A pipe from text (e-mail normalisation, stringbool) is judged whole.
        const input = def.in;
        if (isSchema(input) && (input._zod.def as { type: string }).type === 'string') {
          if (accepts().length) found.push(`${path || '(root)'} accepts ${JSON.stringify(accepts())}`);
          return;
        }
        child('in');
        child('out');
        return;
      }
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        child('innerType');
        return;
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
          if (isSchema(value)) visit(value, path ? `${path}.${key}` : key);
        }
        return;
      case 'array':
        child('element', '[]');
        return;
      case 'record':
        child('keyType', '{key}');
        child('valueType', '{value}');
        return;
      case 'union':
        for (const option of def.options as Schema[]) visit(option, path);
        return;
      default:
        return;
    }
  };
  visit(root, '');
  return found;
}

const requests = Object.entries(contracts)
  .filter(
    ([name, value]) =>
      isSchema(value) && !ANSWERS.includes(name) && (REQUEST_NAME.test(name) || REQUEST_PARTS.includes(name)),
  )
  .map(([name, value]) => [name, value as Schema] as const);

describe('text fields of the request contracts', () => {
  it('finds the request contracts', () => {
    const names = requests.map(([name]) => name);
    for (const name of [
      'ContactInput',
      'ListInput',
      'CheckoutBody',
      'CommunityInput',
      'SegmentInput',
      'TemplateUpdate',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.length).toBeGreaterThan(30);
  });

  it('the walk finds a plain string field (the check can fail)', () => {
    const loose = z.object({ name: z.string(), tags: z.array(z.string()), meta: z.record(z.string(), text(10)) });
    expect(acceptingTextNodes(loose).map((line) => line.split(' ')[0])).toEqual(['name', 'tags[]', 'meta{key}']);
  });

  it.each(requests)('%s refuses NUL, control characters and lone surrogates in every text field', (_name, schema) => {
    expect(acceptingTextNodes(schema)).toEqual([]);
  });

  it('names the field with the message', () => {
    const r = z.safeParse(contracts.ContactInput, { first_name: 'An\u0000na', attributes: { 'x\ud800': 1 } });
    expect(r.success).toBe(false);
    const issues = r.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toContainEqual(['first_name', UNSTORABLE_TEXT_MESSAGE]);
    expect(issues?.some(([path]) => String(path).startsWith('attributes'))).toBe(true);
    // Tab, line feed and carriage return are text; so are emoji (surrogate pairs).
    expect(z.safeParse(text(50), 'a\tb\nc\r\n😀').success).toBe(true);
  });
});
