import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { segmentFields, type Contact, type Segment } from '@console/shared/contracts';
import SegmentsPage from '../../pages/segments-page';
import { badRequest, fakeGateway, pageOf, renderPage } from '../../../test/audience-kit';

// Page tests drive whole screens in jsdom: slow on a busy two-core machine.
jest.setTimeout(20_000);

const TOKEN = '6f1c2a4e-0000-4000-8000-000000000001';
const fields = segmentFields(
  [],
  [
    {
      id: TOKEN,
      name: 'Lab token',
      events: ['Transfer(address,address,uint256)', 'Approval(address,address,uint256)'],
      token: { symbol: 'LAB', decimals: 18 },
    },
  ],
);
const BALANCE = `chain.balance.${TOKEN}`;
const TRANSFER = `chain.event.${TOKEN}.Transfer`;

interface PreviewBody {
  rule: { rules: { field: string; operator: string; value?: unknown }[] };
}
const isPreviewBody = (value: unknown): value is PreviewBody =>
  typeof value === 'object' && value !== null && 'rule' in value;

function setup() {
  const gateway = fakeGateway();
  gateway.on('GET /v1/segments/fields', () => ({ records: fields }));
  gateway.on('GET /v1/lists', () => pageOf([]));
  gateway.on('GET /v1/segments', () => pageOf([]));
  gateway.on('POST /v1/segments/preview', () => ({ count: 42, records: [] as Contact[] }));
  /** The first rule of the last preview asked for. */
  const lastRule = () =>
    gateway
      .callsTo('POST /v1/segments/preview')
      .map((c) => c.json)
      .filter(isPreviewBody)
      .at(-1)?.rule.rules[0];
  return { lastRule };
}

async function openNew() {
  const user = userEvent.setup();
  renderPage(<SegmentsPage />, { path: '/engagement/segments' });
  await user.click(await screen.findByRole('button', { name: 'Create segment' }));
  await screen.findByText('42 contacts match');
  return user;
}

const optionLabels = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

test("the builder offers the watched contracts' fields in their own group", async () => {
  setup();
  await openNew();
  const field = screen.getByRole('combobox', { name: 'Field' });
  const group = within(field).getByRole('group', { name: 'On chain' });
  expect(optionLabels(group)).toEqual([
    'Lab token: balance',
    'Lab token: Transfer',
    'Lab token: Approval',
    'First seen on chain',
  ]);
});

test('a balance rule takes an amount in token units, as text, from the first keystroke after choosing it', async () => {
  const { lastRule } = setup();
  const user = await openNew();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), BALANCE);
  expect(optionLabels(screen.getByRole('combobox', { name: 'Operator' }))).toEqual([
    'holds at least',
    'holds less than',
    'holds between',
  ]);
  const amount = screen.getByRole('textbox', { name: 'Lab token: balance amount' });
  expect(amount).toHaveAccessibleDescription('LAB');
  expect(amount).toHaveValue('');
  await user.type(amount, '2');
  expect(screen.getByRole('textbox', { name: 'Lab token: balance amount' })).toHaveValue('2');
  await user.type(screen.getByRole('textbox', { name: 'Lab token: balance amount' }), '.5');
  expect(screen.getByRole('textbox', { name: 'Lab token: balance amount' })).toHaveValue('2.5');
  // The value stays the decimal text the user typed: no floating point on the way.
  await waitFor(() =>
    expect(lastRule()).toEqual(expect.objectContaining({ field: BALANCE, operator: '>=', value: '2.5' })),
  );

  await user.clear(screen.getByRole('textbox', { name: 'Lab token: balance amount' }));
  await user.type(screen.getByRole('textbox', { name: 'Lab token: balance amount' }), '0.0000000000000000001');
  expect(screen.getByRole('textbox', { name: 'Lab token: balance amount' })).toHaveAttribute('aria-invalid', 'true');

  await user.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), 'between');
  await user.type(screen.getByRole('textbox', { name: 'Lab token: balance from' }), '100');
  await user.type(screen.getByRole('textbox', { name: 'Lab token: balance to' }), '1000000000000000000000.5');
  await waitFor(() =>
    expect(lastRule()).toEqual(
      expect.objectContaining({ operator: 'between', value: ['100', '1000000000000000000000.5'] }),
    ),
  );
});

test('an event rule takes how many times and a period, by keyboard too', async () => {
  const { lastRule } = setup();
  const user = await openNew();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), TRANSFER);
  expect(optionLabels(screen.getByRole('combobox', { name: 'Operator' }))).toEqual(['at least', 'fewer than']);
  const times = screen.getByRole('spinbutton', { name: 'Lab token: Transfer: number of times' });
  expect(times).toHaveValue(1);
  expect(screen.getByRole('combobox', { name: 'Lab token: Transfer: period' })).toHaveValue('ever');
  await waitFor(() => expect(lastRule()).toEqual(expect.objectContaining({ field: TRANSFER, value: [1] })));

  await user.tripleClick(times);
  await user.keyboard('3');
  expect(screen.getByRole('spinbutton', { name: 'Lab token: Transfer: number of times' })).toHaveValue(3);
  await waitFor(() => expect(lastRule()).toEqual(expect.objectContaining({ value: [3] })));

  await user.tab();
  expect(screen.getByRole('combobox', { name: 'Lab token: Transfer: period' })).toHaveFocus();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Lab token: Transfer: period' }), 'days');
  const days = screen.getByRole('spinbutton', { name: 'Lab token: Transfer: number of days' });
  expect(days).toHaveValue(30);
  await user.tripleClick(days);
  await user.keyboard('7');
  await waitFor(() => expect(lastRule()).toEqual(expect.objectContaining({ operator: '>=', value: [3, 7] })));

  await user.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), '<');
  await waitFor(() => expect(lastRule()).toEqual(expect.objectContaining({ operator: '<' })));
  await user.selectOptions(screen.getByRole('combobox', { name: 'Lab token: Transfer: period' }), 'ever');
  expect(screen.queryByRole('spinbutton', { name: 'Lab token: Transfer: number of days' })).toBeNull();
});

test('"First seen on chain" is a date field whose empty reads as never', async () => {
  const { lastRule } = setup();
  const user = await openNew();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), 'chain.first_seen');
  expect(optionLabels(screen.getByRole('combobox', { name: 'Operator' }))).toContain('never');
  await user.type(screen.getByLabelText('First seen on chain value'), '2025-01-01');
  await waitFor(() =>
    expect(lastRule()).toEqual(
      expect.objectContaining({ field: 'chain.first_seen', operator: '<', value: '2025-01-01' }),
    ),
  );
  await user.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), 'null');
  expect(screen.queryByLabelText('First seen on chain value')).toBeNull();
});

test('a saved rule on a contract no longer watched shows as such, with the reason instead of a count', async () => {
  const gone = '6f1c2a4e-0000-4000-8000-00000000dead';
  const saved: Segment = {
    _id: 's1',
    name: 'Old holders',
    description: '',
    rule: { combinator: 'and', rules: [{ field: `chain.balance.${gone}`, operator: '>=', value: '5' }] },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
  const gateway = fakeGateway();
  gateway.on('GET /v1/segments/fields', () => ({ records: fields }));
  gateway.on('GET /v1/lists', () => pageOf([]));
  gateway.on('GET /v1/segments', () => pageOf([saved]));
  gateway.on('POST /v1/segments/preview', () =>
    badRequest({ rule: [`"chain.balance.${gone}": Contract no longer watched.`] }, 'Check the segment rules.'),
  );
  const user = userEvent.setup();
  renderPage(<SegmentsPage />);
  await user.click(await screen.findByRole('button', { name: 'Edit Old holders' }));
  const field = await screen.findByRole('combobox', { name: 'Field' });
  expect(field).toHaveValue(`chain.balance.${gone}`);
  expect(within(field).getByRole('option', { selected: true })).toHaveTextContent('Contract no longer watched');
  expect(screen.getByRole('textbox', { name: 'Contract no longer watched amount' })).toHaveValue('5');
  expect(await screen.findByText(`"chain.balance.${gone}": Contract no longer watched.`)).toBeInTheDocument();
  expect(screen.queryByText(/contacts match/)).toBeNull();
});
