import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ImportJob } from '@console/shared/contracts';
import ContactsImportPage from '../../pages/contacts-import-page';
import { badRequest, fakeGateway, pageOf, renderPage } from '../../../test/audience-kit';

// Page tests drive whole screens in jsdom: slow on a busy two-core machine.
jest.setTimeout(20_000);

const CSV = [
  'E-mail Address,Given name,Surname,Discord,notes',
  `ann@example.com,Ann,Lee,ann#1,hello`,
  `bob@example.com,Bob,Ray,bob#2,`,
].join('\n');

const attributes = [
  {
    _id: 'a1',
    name: 'Discord',
    key: 'discord',
    type: 'text',
    created_at: '2026-01-01T00:00:00.000Z',
  },
];
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

function job(patch: Partial<ImportJob> = {}): ImportJob {
  return {
    _id: 'j1',
    status: 'uploaded',
    file_name: 'people.csv',
    total_bytes: 1000,
    bytes_done: 0,
    rows_done: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    mapping: [],
    has_header: true,
    mode: 'update',
    list_id: null,
    error: null,
    created_at: '2026-03-04T10:00:00.000Z',
    started_at: null,
    finished_at: null,
    ...patch,
  };
}

function setup() {
  const gateway = fakeGateway();
  gateway.on('GET /v1/custom-attributes', () => pageOf(attributes));
  gateway.on('GET /v1/lists', () => pageOf(lists));
  gateway.on('GET /v1/imports', () => pageOf([]));
  return gateway;
}

async function chooseFile(text = CSV, name = 'people.csv') {
  const user = userEvent.setup();
  const input = await screen.findByLabelText('CSV file');
  await user.upload(input, new File([text], name, { type: 'text/csv' }));
  return user;
}

const targetOf = (header: string) => screen.getByRole('combobox', { name: `Import "${header}" as` });

test('choosing a file shows the preview and the suggested mapping', async () => {
  setup();
  renderPage(<ContactsImportPage />, { path: '/engagement/contacts/import' });
  await chooseFile();

  expect(await screen.findByRole('heading', { name: 'Map columns' })).toBeInTheDocument();
  expect(screen.getByText('ann@example.com')).toBeInTheDocument();
  expect(screen.getByText('bob#2')).toBeInTheDocument();
  expect(targetOf('E-mail Address')).toHaveValue('email');
  expect(targetOf('Given name')).toHaveValue('first_name');
  expect(targetOf('Surname')).toHaveValue('last_name');
  expect(targetOf('Discord')).toHaveValue('attr:discord');
  expect(targetOf('notes')).toHaveValue('');
  expect(within(targetOf('notes')).getByRole('option', { name: 'Discord (attribute)' })).toBeInTheDocument();
  expect(screen.getByRole('checkbox', { name: 'First row is a header' })).toBeChecked();
  expect(screen.getByRole('radio', { name: "Update them with the file's values" })).toBeChecked();
  expect(await screen.findByRole('option', { name: 'Holders' })).toBeInTheDocument();
});

test('an empty file says so', async () => {
  setup();
  renderPage(<ContactsImportPage />);
  await chooseFile('\n\n', 'empty.csv');
  expect(await screen.findByRole('alert')).toHaveTextContent('The file is empty.');
});

test('without an e-mail or wallet column the import does not start', async () => {
  const gateway = setup();
  renderPage(<ContactsImportPage />);
  const user = await chooseFile();
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Import "E-mail Address" as' }), '');
  await user.click(screen.getByRole('button', { name: 'Start import' }));
  expect(await screen.findByText('Map a column to E-mail or Wallet.')).toBeInTheDocument();
  expect(gateway.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

  // Choosing the same target for another column moves it there.
  await user.selectOptions(targetOf('notes'), 'wallet');
  await user.selectOptions(targetOf('Discord'), 'wallet');
  expect(targetOf('notes')).toHaveValue('');
  expect(targetOf('Discord')).toHaveValue('wallet');
});

test('start uploads, starts, then shows the progress of the job until it completes; failed rows download', async () => {
  const gateway = setup();
  let polls = 0;
  gateway.on('POST /v1/imports', () => job());
  gateway.on('POST /v1/imports/:id/start', () => job({ status: 'queued', list_id: 'l1' }));
  gateway.on('GET /v1/imports/:id', () => {
    polls += 1;
    return polls === 1
      ? job({
          status: 'running',
          bytes_done: 420,
          rows_done: 1234,
          created: 1000,
          updated: 200,
          failed: 34,
          list_id: 'l1',
        })
      : job({
          status: 'completed',
          bytes_done: 1000,
          rows_done: 2500,
          created: 2000,
          updated: 400,
          skipped: 50,
          failed: 50,
          list_id: 'l1',
        });
  });
  gateway.on('GET /v1/imports/:id/failures', () => new Response('row,reason\n3,bad e-mail\n'));
  const created = jest.fn(() => 'blob:failures');
  URL.createObjectURL = created;
  URL.revokeObjectURL = jest.fn();
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

  renderPage(<ContactsImportPage />, { path: '/engagement/contacts/import' });
  const user = await chooseFile();
  await screen.findByRole('option', { name: 'Holders' }, { timeout: 5000 });
  await user.selectOptions(screen.getByRole('combobox', { name: 'Add the contacts to a list' }), 'l1');
  await user.click(screen.getByRole('radio', { name: 'Skip them' }));
  await user.click(screen.getByRole('button', { name: 'Start import' }));

  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/contacts/import?job=j1'));
  const [upload] = gateway.callsTo('POST /v1/imports');
  expect(upload?.search.get('fileName')).toBe('people.csv');
  expect(upload?.contentType).toBe('text/csv');
  // (The body itself is not checked: Node's fetch does not read jsdom's File objects.)
  const [start] = gateway.callsTo('POST /v1/imports/j1/start');
  expect(start?.json).toEqual({
    mapping: ['email', 'first_name', 'last_name', 'attr:discord', null],
    has_header: true,
    mode: 'skip',
    listId: 'l1',
  });

  const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
  await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '42'));
  expect(within(screen.getByTestId('import-figures')).getByText('1,234')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Cancel import' })).toBeInTheDocument();

  await waitFor(() => expect(screen.getByTestId('import-status')).toHaveTextContent('Import complete'), {
    timeout: 3000,
  });
  const figures = (label: string) =>
    within(screen.getByTestId('import-figures')).getByText(label).nextElementSibling?.textContent;
  expect(figures('Rows done')).toBe('2,500');
  expect(figures('Created')).toBe('2,000');
  expect(figures('Updated')).toBe('400');
  expect(figures('Skipped')).toBe('50');
  expect(figures('Failed')).toBe('50');
  expect(screen.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');
  expect(screen.queryByRole('button', { name: 'Cancel import' })).toBeNull();
  expect(screen.getByRole('link', { name: 'View contacts' })).toHaveAttribute('href', '/engagement/contacts?listId=l1');

  await user.click(screen.getByRole('button', { name: 'Download failed rows' }));
  await waitFor(() => expect(click).toHaveBeenCalled());
  expect(gateway.callsTo('GET /v1/imports/j1/failures')).toHaveLength(1);
  const anchor = click.mock.instances[0];
  expect(anchor).toHaveAttribute('download', 'import-j1-failures.csv');
  // No more polling once finished.
  const pollsWhenDone = polls;
  await act(() => new Promise((resolve) => setTimeout(resolve, 1200)));
  expect(polls).toBe(pollsWhenDone);

  await user.click(screen.getByRole('button', { name: 'Import another file' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/\/engagement\/contacts\/import$/);
  expect(await screen.findByLabelText('CSV file')).toBeInTheDocument();
  click.mockRestore();
});

test('server field errors show at their controls; the file is not uploaded twice', async () => {
  const gateway = setup();
  gateway.on('POST /v1/imports', () => job());
  let starts = 0;
  gateway.on('POST /v1/imports/:id/start', () => {
    starts += 1;
    return starts === 1
      ? badRequest({ newListName: ['A list with this name already exists.'] })
      : job({ status: 'queued' });
  });
  gateway.on('GET /v1/imports/:id', () => job({ status: 'queued' }));
  renderPage(<ContactsImportPage />);
  const user = await chooseFile();
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Add the contacts to a list' }), '__new__');
  await user.click(screen.getByRole('button', { name: 'Start import' }));
  expect(await screen.findByText('Enter a name for the new list.')).toBeInTheDocument();
  await user.type(screen.getByRole('textbox', { name: 'New list name' }), 'Holders');
  await user.click(screen.getByRole('button', { name: 'Start import' }));
  expect(await screen.findByText('A list with this name already exists.')).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'New list name' })).toHaveAttribute('aria-invalid', 'true');
  await user.click(screen.getByRole('button', { name: 'Start import' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('?job=j1'));
  expect(gateway.callsTo('POST /v1/imports')).toHaveLength(1);
  expect(gateway.callsTo('POST /v1/imports/j1/start').map((c) => c.json)).toEqual([
    expect.objectContaining({ newListName: 'Holders' }),
    expect.objectContaining({ newListName: 'Holders' }),
  ]);
});

test('a failed job shows its error as text', async () => {
  const gateway = setup();
  gateway.on('GET /v1/imports/:id', () =>
    job({ status: 'failed', error: '<b>The file is not a CSV file.</b>', bytes_done: 10 }),
  );
  renderPage(<ContactsImportPage />, { path: '/engagement/contacts/import?job=j1' });
  const alert = await screen.findByText('<b>The file is not a CSV file.</b>');
  expect(alert.querySelector('b')).toBeNull();
  expect(screen.getByTestId('import-status')).toHaveTextContent('Import failed');
  expect(screen.getByRole('link', { name: 'View contacts' })).toHaveAttribute('href', '/engagement/contacts');
  expect(screen.queryByRole('button', { name: 'Download failed rows' })).toBeNull();
});

test('recent imports link to their job', async () => {
  const gateway = setup();
  gateway.on('GET /v1/imports', () => pageOf([job({ status: 'completed', rows_done: 12345, created: 12000 })]));
  renderPage(<ContactsImportPage />, { path: '/engagement/contacts/import' });
  const grid = await screen.findByRole('table', { name: 'Recent imports' });
  const link = await within(grid).findByRole('link', { name: 'people.csv' });
  expect(link).toHaveAttribute('href', '/engagement/contacts/import?job=j1');
  expect(within(grid).getByText('12,345')).toBeInTheDocument();
  expect(within(grid).getByText('Completed')).toBeInTheDocument();
});
