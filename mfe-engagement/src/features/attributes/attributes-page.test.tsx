import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CustomAttributeInput, CustomAttributeRename, type CustomAttribute } from '@console/shared/contracts';
import CustomAttributesPage from '../../pages/custom-attributes-page';
import { badRequest, fakeGateway, json, pageOf, renderPage } from '../../../test/audience-kit';

// Page tests drive whole screens in jsdom: slow on a busy two-core machine.
jest.setTimeout(20_000);

const balance: CustomAttribute = {
  _id: 'a1',
  name: 'Token balance',
  key: 'token_balance',
  type: 'number',
  created_at: '2026-03-04T10:00:00.000Z',
};

function setup(records: CustomAttribute[] = [balance]) {
  const gateway = fakeGateway();
  gateway.on('GET /v1/custom-attributes', () => pageOf(records));
  return gateway;
}

test('the grid shows name, key, type and created date, sorted and searchable through the list query', async () => {
  const gateway = setup();
  const user = userEvent.setup();
  renderPage(<CustomAttributesPage />);
  const grid = await screen.findByRole('table', { name: 'Custom attributes' });
  expect(await within(grid).findByText('Token balance')).toBeInTheDocument();
  expect(within(grid).getByText('token_balance')).toBeInTheDocument();
  expect(within(grid).getByText('Number')).toBeInTheDocument();
  expect(within(grid).getByText('Mar 4, 2026')).toBeInTheDocument();
  expect(gateway.calls[0]?.search.get('sortField')).toBe('created_at');

  await user.click(within(grid).getByRole('button', { name: 'Key' }));
  await waitFor(() => expect(gateway.calls.at(-1)?.search.get('sortField')).toBe('key'));
  expect(screen.getByRole('searchbox', { name: 'Search attributes' })).toBeInTheDocument();
});

test('an empty grid says so', async () => {
  setup([]);
  renderPage(<CustomAttributesPage />);
  expect(await screen.findByText('No custom attributes yet.')).toBeInTheDocument();
});

test('create derives the key from the name until the key is edited; server errors show at the field', async () => {
  const gateway = setup();
  let attempts = 0;
  gateway.on('POST /v1/custom-attributes', ({ json: body }) => {
    attempts += 1;
    const input = CustomAttributeInput.parse(body);
    if (attempts === 1) return badRequest({ key: ['An attribute with this key already exists.'] });
    return json({ ...input, _id: 'a2', created_at: '2026-03-05T10:00:00.000Z' }, 201);
  });
  const user = userEvent.setup();
  renderPage(<CustomAttributesPage />);
  await user.click(await screen.findByRole('button', { name: 'Create attribute' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create attribute' });
  const name = within(dialog).getByRole('textbox', { name: 'Name' });
  const key = within(dialog).getByRole('textbox', { name: 'Key' });
  await user.type(name, 'Discord Handle');
  expect(key).toHaveValue('discord_handle');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'wallet');
  expect(within(dialog).getByText(/An Ethereum address/)).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Create attribute' }));
  expect(await within(dialog).findByText('An attribute with this key already exists.')).toBeInTheDocument();
  expect(key).toHaveAttribute('aria-invalid', 'true');

  await user.clear(key);
  await user.type(key, 'discord');
  await user.type(name, ' (main)');
  expect(key).toHaveValue('discord');
  await user.click(within(dialog).getByRole('button', { name: 'Create attribute' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create attribute' })).toBeNull());
  expect(gateway.callsTo('POST /v1/custom-attributes').map((c) => c.json)).toEqual([
    { name: 'Discord Handle', key: 'discord_handle', type: 'wallet' },
    { name: 'Discord Handle (main)', key: 'discord', type: 'wallet' },
  ]);
});

test('rename shows key and type read-only', async () => {
  const gateway = setup();
  gateway.on('PATCH /v1/custom-attributes/:id', ({ json: body }) => ({
    ...balance,
    ...CustomAttributeRename.parse(body),
  }));
  const user = userEvent.setup();
  renderPage(<CustomAttributesPage />);
  await user.click(await screen.findByRole('button', { name: 'Rename Token balance' }));
  const dialog = await screen.findByRole('dialog', { name: 'Rename attribute' });
  expect(within(dialog).getByText('token_balance')).toBeInTheDocument();
  expect(within(dialog).getByText(/cannot change/)).toBeInTheDocument();
  expect(within(dialog).queryByRole('textbox', { name: 'Key' })).toBeNull();
  const name = within(dialog).getByRole('textbox', { name: 'Name' });
  await user.clear(name);
  await user.type(name, 'Balance');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(gateway.callsTo('PATCH /v1/custom-attributes/a1')).toHaveLength(1));
  expect(gateway.callsTo('PATCH /v1/custom-attributes/a1')[0]?.json).toEqual({ name: 'Balance' });
});

test('delete asks how many contacts hold a value, with a spinner meanwhile', async () => {
  const gateway = setup();
  let release: () => void = () => {};
  gateway.on(
    'GET /v1/custom-attributes/:id',
    () => new Promise((resolve) => (release = () => resolve({ ...balance, value_count: 12345 }))),
  );
  gateway.on('DELETE /v1/custom-attributes/:id', () => ({ message: 'Custom attribute deleted.' }));
  const user = userEvent.setup();
  renderPage(<CustomAttributesPage />);
  await user.click(await screen.findByRole('button', { name: 'Delete Token balance' }));
  const dialog = await screen.findByTestId('confirm-dialog');
  expect(dialog).toHaveTextContent('Delete the attribute "Token balance"?');
  expect(within(dialog).getByRole('status', { name: 'Counting contacts with a value' })).toBeInTheDocument();
  await waitFor(() => expect(gateway.callsTo('GET /v1/custom-attributes/a1')).toHaveLength(1));
  release();
  expect(
    await within(dialog).findByText(
      '12,345 contacts have a value for this attribute. Deleting it removes those values.',
    ),
  ).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(gateway.callsTo('DELETE /v1/custom-attributes/a1')).toHaveLength(1));
  await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
});
