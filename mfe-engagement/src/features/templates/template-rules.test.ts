import { insertAt, isInUse, liquidFor, parseRecipients, usageText } from './template-rules';

const usage = (scheduled_emails: number, active_automations: number) => ({
  scheduled_emails,
  active_automations,
  names: [],
});

test.each([
  [usage(0, 0), 'Not used', false],
  [usage(1, 0), '1 scheduled e-mail', true],
  [usage(2, 1), '2 scheduled e-mails, 1 active automation', true],
  [usage(0, 3), '3 active automations', true],
])('usage %o reads "%s" (in use: %s)', (u, text, inUse) => {
  expect(usageText(u)).toBe(text);
  expect(isInUse(u)).toBe(inUse);
});

test.each([
  ['contact.first_name', '{{ contact.first_name | default: "" }}'],
  ['contact.token_balance', '{{ contact.token_balance | default: "" }}'],
  ['community.name', '{{ community.name }}'],
  ['unsubscribe_url', '{{ unsubscribe_url }}'],
])('merge tag %s is inserted as %s', (tag, liquid) => {
  expect(liquidFor(tag)).toBe(liquid);
});

test('insertAt replaces the selection and puts the caret after the text', () => {
  expect(insertAt('Hello !', '{{ x }}', 6, 6)).toEqual({ value: 'Hello {{ x }}!', caret: 13 });
  expect(insertAt('Hello world', 'you', 6, 11)).toEqual({ value: 'Hello you', caret: 9 });
  expect(insertAt('Hi', ' there', null, null)).toEqual({ value: 'Hi there', caret: 8 });
});

test.each([
  ['a@example.com', { ok: true, recipients: ['a@example.com'] }],
  [
    'a@example.com, b@example.com;\nc@example.com',
    { ok: true, recipients: ['a@example.com', 'b@example.com', 'c@example.com'] },
  ],
  ['a@example.com A@example.com', { ok: true, recipients: ['a@example.com'] }],
  ['', { ok: false, error: 'Add an address.' }],
  ['a@example.com, nope', { ok: false, error: '"nope" is not a valid e-mail address.' }],
  ['1@x.io 2@x.io 3@x.io 4@x.io 5@x.io 6@x.io', { ok: false, error: 'Send a test to at most 5 addresses.' }],
])('test recipients %j', (input, result) => {
  expect(parseRecipients(input)).toEqual(result);
});
