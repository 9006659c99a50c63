import { z } from 'zod';

type RawIssue = Parameters<NonNullable<NonNullable<Parameters<typeof z.config>[0]>['customError']>>[0];

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/**
 * Human messages for field errors. Schema-level messages in the contracts (e.g. 'Enter a valid
 * e-mail address.') still win; this only replaces zod's generic defaults.
 */
export function fieldMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'This field is required.';
      return `Expected ${TYPE_NAMES[issue.expected] ?? issue.expected}.`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1 ? 'This field is required.' : `Use at least ${issue.minimum} characters.`;
      }
      if (issue.origin === 'array') return `Choose at least ${issue.minimum}.`;
      return `Must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Use at most ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `Choose at most ${issue.maximum}.`;
      return `Must be at most ${issue.maximum}.`;
    case 'invalid_value':
      return `Choose one of: ${issue.values.map(String).join(', ')}.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    case 'invalid_format':
      if (issue.format === 'uuid') return 'Not a valid id.';
      if (issue.format === 'email') return 'Enter a valid e-mail address.';
      return 'Invalid format.';
    default:
      return undefined;
  }
}

let installed = false;
export function installZodMessages() {
  if (installed) return;
  installed = true;
  z.config({ customError: fieldMessage });
}
