import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SegmentInput, segmentFields, type Contact, type Segment } from '@console/shared/contracts';
import SegmentsPage from '../../pages/segments-page';
import { badRequest, fakeGateway, json, pageOf, renderPage } from '../../../test/audience-kit';

// Page tests drive whole screens in jsdom: slow on a busy two-core machine.
jest.setTimeout(20_000);

const attributes = [
  { name: 'Token balance', key: 'token_balance', type: 'number' },
  { name: 'Joined', key: 'joined', type: 'date' },
] as const;
const lists = [
  {
    _id: 'l1',
    name: 'Holders',
    description: '',
    autoimport: false,
    community_id: null,
    member_count: 3,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
];
const contact: Contact = {
  _id: 'c1',
  wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
  email: 'ann@example.com',
  first_name: 'Ann',
  last_name: 'Lee',
  status: 'subscribed',
  source: 'import',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  lists: [],
  attributes: {},
};
const saved: Segment = {
  _id: 's1',
  name: 'Whales',
  description: 'Big holders',
  rule: { combinator: 'and', rules: [{ field: 'attr.token_balance', operator: '>', value: 1000 }] },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-02-01T00:00:00.000Z',
};

interface PreviewBody {
  rule: { combinator: string; rules: { field: string; operator: string; value?: unknown }[] };
  limit: number;
}
const isPreviewBody = (value: unknown): value is PreviewBody =>
  typeof value === 'object' && value !== null && 'rule' in value && 'limit' in value;

function setup() {
  const gateway = fakeGateway();
  gateway.on('GET /v1/segments/fields', () => ({ records: segmentFields(attributes) }));
  gateway.on('GET /v1/lists', () => pageOf(lists));
  gateway.on('GET /v1/segments', () => pageOf([saved]));
  gateway.on('POST /v1/segments/preview', ({ json: body }) => {
    if (!isPreviewBody(body)) return json({ message: 'bad' }, 400);
    const first = body.rule.rules[0];
    if (first?.field === 'wallet' && typeof first.value === 'string' && !first.value.startsWith('0x')) {
      return badRequest(
        { rule: ['Rule 1 (Wallet): enter a wallet address or its beginning.'] },
        'Check the segment rules.',
      );
    }
    const count = first?.value === 'bounced' ? 7 : 1234;
    return { count, records: [contact] };
  });
  const previews = () =>
    gateway
      .callsTo('POST /v1/segments/preview')
      .map((c) => c.json)
      .filter(isPreviewBody);
  return { gateway, previews };
}

const optionNames = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

async function openNew() {
  const user = userEvent.setup();
  renderPage(<SegmentsPage />, { path: '/engagement/segments' });
  await user.click(await screen.findByRole('button', { name: 'Create segment' }));
  await screen.findByRole('combobox', { name: 'Field' });
  return user;
}

test('the grid lists saved segments with a link to their contacts', async () => {
  setup();
  renderPage(<SegmentsPage />);
  const grid = await screen.findByRole('table', { name: 'Segments' });
  expect(await within(grid).findByRole('button', { name: 'Edit Whales' })).toBeInTheDocument();
  expect(within(grid).getByText('Big holders')).toBeInTheDocument();
  expect(within(grid).getByRole('link', { name: 'View contacts of Whales' })).toHaveAttribute(
    'href',
    '/engagement/contacts?segmentId=s1',
  );
});

test('the builder offers only the allowlisted fields and each kind its operators', async () => {
  setup();
  const user = await openNew();
  const field = screen.getByRole('combobox', { name: 'Field' });
  expect(optionNames(field)).toEqual([
    'E-mail',
    'Wallet',
    'First name',
    'Last name',
    'Status',
    'Source',
    'List membership',
    'Created',
    'Updated',
    'Token balance',
    'Joined',
  ]);
  expect(field).toHaveValue('status');
  const operators = () => optionNames(screen.getByRole('combobox', { name: 'Operator' }));
  expect(operators()).toEqual(['is', 'is not', 'is one of', 'is not one of']);
  expect(operators()).not.toContain('contains');
  expect(optionNames(screen.getByRole('combobox', { name: 'Status value' }))).toEqual([
    'Subscribed',
    'Unsubscribed',
    'Bounced',
    'Complained',
  ]);

  await user.selectOptions(field, 'email');
  expect(operators()).toEqual([
    'is',
    'is not',
    'contains',
    'does not contain',
    'starts with',
    'ends with',
    'is empty',
    'is not empty',
  ]);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), 'null');
  expect(screen.queryByRole('textbox', { name: 'E-mail value' })).toBeNull();

  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), 'list');
  expect(operators()).toEqual(['is member of any of', 'is member of none of']);
  expect(optionNames(screen.getByRole('listbox', { name: 'List membership value' }))).toEqual(['Holders']);

  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), 'attr.joined');
  expect(operators()).toEqual([
    'is before',
    'is after',
    'is between',
    'within the last N days',
    'is empty',
    'is not empty',
  ]);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), 'between');
  expect(screen.getByLabelText('Joined from')).toHaveAttribute('type', 'date');
  expect(screen.getByLabelText('Joined to')).toHaveAttribute('type', 'date');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), 'lastDays');
  expect(screen.getByRole('spinbutton', { name: 'Number of days' })).toHaveValue(30);

  // A new group comes with a rule; groups nest.
  await user.click(screen.getByRole('button', { name: 'Add group' }));
  expect(screen.getAllByRole('combobox', { name: 'Match' })).toHaveLength(2);
  expect(screen.getAllByRole('combobox', { name: 'Field' })).toHaveLength(2);
  await user.click(screen.getAllByRole('button', { name: 'Add rule' })[1]!);
  expect(screen.getAllByRole('combobox', { name: 'Field' })).toHaveLength(3);
  await user.click(screen.getAllByRole('button', { name: 'Add group' })[1]!);
  expect(screen.getAllByRole('combobox', { name: 'Match' })).toHaveLength(3);
  await user.click(screen.getAllByRole('button', { name: 'Remove group' })[0]!);
  expect(screen.getAllByRole('combobox', { name: 'Field' })).toHaveLength(1);
  await user.click(screen.getByRole('button', { name: 'Remove rule' }));
  expect(screen.queryByRole('combobox', { name: 'Field' })).toBeNull();
});

test('editing asks for the live count and shows it with the first matches', async () => {
  const { previews } = setup();
  const user = await openNew();
  expect(await screen.findByText('1,234 contacts match')).toBeInTheDocument();
  expect(previews()[0]).toEqual({
    rule: expect.objectContaining({
      combinator: 'and',
      rules: [expect.objectContaining({ field: 'status', operator: '=', value: 'subscribed', id: expect.any(String) })],
    }),
    limit: 10,
  });
  const table = screen.getByRole('table', { name: 'First matching contacts' });
  expect(within(table).getByText('ann@example.com')).toBeInTheDocument();
  expect(within(table).getByText('Ann Lee')).toBeInTheDocument();

  await user.selectOptions(screen.getByRole('combobox', { name: 'Status value' }), 'bounced');
  expect(await screen.findByText('7 contacts match')).toBeInTheDocument();
  expect(previews().at(-1)?.rule.rules[0]).toEqual(expect.objectContaining({ value: 'bounced' }));
  expect(screen.getByTestId('segment-count')).toHaveAttribute('aria-live', 'polite');
});

test('typing is debounced: one preview for a burst of keystrokes', async () => {
  const { previews } = setup();
  const user = await openNew();
  await screen.findByText('1,234 contacts match');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), 'first_name');
  const before = previews().length;
  await user.type(screen.getByRole('textbox', { name: 'First name value' }), 'Annabel');
  await waitFor(() => expect(previews().at(-1)?.rule.rules[0]).toEqual(expect.objectContaining({ value: 'Annabel' })));
  expect(previews().length - before).toBeLessThanOrEqual(2);
});

test('a rule the gateway refuses shows its message instead of a count', async () => {
  setup();
  const user = await openNew();
  await screen.findByText('1,234 contacts match');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), 'wallet');
  await user.type(screen.getByRole('textbox', { name: 'Wallet value' }), 'zz');
  expect(await screen.findByText('Rule 1 (Wallet): enter a wallet address or its beginning.')).toBeInTheDocument();
  expect(screen.queryByText(/contacts match/)).toBeNull();
  expect(screen.queryByRole('table', { name: 'First matching contacts' })).toBeNull();
  await user.clear(screen.getByRole('textbox', { name: 'Wallet value' }));
  await user.type(screen.getByRole('textbox', { name: 'Wallet value' }), '0x5290');
  expect(await screen.findByText('1,234 contacts match')).toBeInTheDocument();
  expect(screen.queryByText('Rule 1 (Wallet): enter a wallet address or its beginning.')).toBeNull();
});

test('an unfinished rule waits for its value instead of asking for a count', async () => {
  const { previews } = setup();
  const user = await openNew();
  await screen.findByText('1,234 contacts match');
  const before = previews().length;
  await user.click(screen.getByRole('button', { name: 'Add rule' }));
  expect(await screen.findByText('Fill in every rule to see how many contacts match.')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
  await act(() => new Promise((resolve) => setTimeout(resolve, 600)));
  expect(previews()).toHaveLength(before);
  await user.type(screen.getAllByRole('textbox', { name: 'E-mail value' })[0]!, 'dao');
  expect(await screen.findByText('1,234 contacts match')).toBeInTheDocument();
  expect(previews().at(-1)?.rule.rules).toHaveLength(2);
});

test('saving posts name, description and the rule JSON; server field errors show', async () => {
  const { gateway } = setup();
  let attempts = 0;
  gateway.on('POST /v1/segments', ({ json: body }) => {
    attempts += 1;
    if (attempts === 1) return badRequest({ name: ['A segment with this name already exists.'] });
    return { ...saved, _id: 's2', name: 'Bounced', description: 'Clean-up', rule: SegmentInput.parse(body).rule };
  });
  const user = await openNew();
  await user.click(screen.getByRole('button', { name: 'Save segment' }));
  expect(await screen.findByText('Enter a name.')).toBeInTheDocument();
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Bounced');
  await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Clean-up');
  await user.click(screen.getByRole('button', { name: 'Save segment' }));
  expect(await screen.findByText('A segment with this name already exists.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Save segment' }));
  expect(await screen.findByRole('link', { name: 'View contacts' })).toHaveAttribute(
    'href',
    '/engagement/contacts?segmentId=s2',
  );
  const posts = gateway.callsTo('POST /v1/segments');
  expect(posts).toHaveLength(2);
  expect(posts[1]?.json).toEqual({
    name: 'Bounced',
    description: 'Clean-up',
    rule: expect.objectContaining({ combinator: 'and', rules: [expect.objectContaining({ field: 'status' })] }),
  });
});

test('an existing segment opens with its rules, saves by PATCH and deletes after confirming', async () => {
  const { gateway } = setup();
  gateway.on('PATCH /v1/segments/:id', ({ json: body }) => ({ ...saved, ...SegmentInput.parse(body) }));
  gateway.on('DELETE /v1/segments/:id', () => ({ message: 'Segment deleted.' }));
  const user = userEvent.setup();
  renderPage(<SegmentsPage />);
  await user.click(await screen.findByRole('button', { name: 'Edit Whales' }));
  expect(await screen.findByRole('combobox', { name: 'Field' })).toHaveValue('attr.token_balance');
  expect(screen.getByRole('combobox', { name: 'Operator' })).toHaveValue('>');
  expect(screen.getByRole('spinbutton', { name: 'Token balance value' })).toHaveValue(1000);
  await user.click(screen.getByRole('button', { name: 'Save segment' }));
  await waitFor(() => expect(gateway.callsTo('PATCH /v1/segments/s1')).toHaveLength(1));

  await user.click(screen.getByRole('button', { name: 'Delete' }));
  const dialog = await screen.findByTestId('confirm-dialog');
  expect(dialog).toHaveTextContent('Delete the segment "Whales"?');
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(gateway.callsTo('DELETE /v1/segments/s1')).toHaveLength(1));
  await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
  const grid = await screen.findByRole('table', { name: 'Segments' });
  await waitFor(() => expect(grid).not.toHaveAttribute('aria-busy'));
});
