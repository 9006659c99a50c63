import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import ContactsPage from '../src/pages/contacts-page';
import {
  fakeGateway,
  json,
  makeAttribute,
  makeContact,
  makeList,
  pageOf,
  renderAt,
  setupGatewayConfig,
  type Call,
} from './contacts-harness';

const lists = [makeList(1, { name: 'VIP' }), makeList(2, { name: 'Newsletter' })];
const attributes = [makeAttribute('tier', 'text', 'Tier'), makeAttribute('score', 'number', 'Score')];

/** Page `page` of 42 contacts, 10 per page (or what perPage asks). */
function contactsReply(call: Call) {
  const page = Number(call.params.get('page') ?? 1);
  const perPage = Number(call.params.get('perPage') ?? 10);
  const count = 42;
  const first = (page - 1) * perPage;
  const rows = Array.from({ length: Math.max(0, Math.min(perPage, count - first)) }, (_, i) =>
    makeContact(first + i + 1, { lists: i === 0 ? ['l1', 'l2'] : [], attributes: { tier: 'gold' } }),
  );
  return json(pageOf(rows, count, page, perPage));
}

function gateway(extra: Parameters<typeof fakeGateway>[0] = {}) {
  return fakeGateway({
    'GET /v1/contacts': contactsReply,
    'GET /v1/lists': () => json(pageOf(lists)),
    'GET /v1/custom-attributes': () => json(pageOf(attributes)),
    'GET /v1/segments/:id': (_call, { id }) =>
      json({
        _id: id,
        name: 'Whales',
        description: '',
        rule: { combinator: 'and', rules: [] },
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      }),
    ...extra,
  });
}

function renderContacts(url = '/engagement/contacts') {
  return renderAt(<ContactsPage />, { url, path: '/engagement/contacts' });
}

// Full screens in jsdom (a grid of ten columns, dialogs with transitions) take a few seconds each.
jest.setTimeout(20_000);

let success: jest.SpyInstance;
let failure: jest.SpyInstance;

beforeAll(() => setupGatewayConfig());
beforeEach(() => {
  window.localStorage.clear();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  failure = jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => jest.restoreAllMocks());

const rowsOf = () =>
  within(screen.getByRole('table', { name: 'Contacts' }))
    .getAllByRole('row')
    .slice(1);

describe('Contacts screen', () => {
  it('renders the header, the rows and "Showing 1 to 10 of 42 results" from the gateway', async () => {
    const gw = gateway();
    renderContacts();
    expect(screen.getByRole('heading', { name: 'Contacts' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Import contacts' })).toHaveAttribute(
      'href',
      '/engagement/contacts/import',
    );
    expect(await screen.findByText('Showing 1 to 10 of 42 results')).toBeInTheDocument();
    expect(rowsOf()).toHaveLength(10);
    const first = rowsOf()[0]!;
    expect(within(first).getByText('user1@example.test')).toBeInTheDocument();
    const wallet = within(first).getByTitle('0x0000000000000000000000000000000000000001');
    expect(wallet).toHaveTextContent('0x0000…0001');
    expect(within(first).getByText('First1 Last1')).toBeInTheDocument();
    expect(within(first).getByText('Subscribed')).toBeInTheDocument();
    await waitFor(() => expect(within(first).getByTitle('VIP, Newsletter')).toHaveTextContent('2· VIP, Newsletter'));
    expect(gw.lastQuery('GET', '/v1/contacts')).toEqual({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    expect(gw.lastQuery('GET', '/v1/lists')).toMatchObject({ perPage: '1000' });
    expect(gw.lastQuery('GET', '/v1/custom-attributes')).toMatchObject({ perPage: '100' });
  });

  it('shows the empty text when nothing matches', async () => {
    gateway({ 'GET /v1/contacts': () => json(pageOf([])) });
    renderContacts();
    expect(await screen.findByRole('cell', { name: 'No contacts found.' })).toBeInTheDocument();
  });

  it('sort, paging and page size send the right query', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 11 to 20 of 42 results');
    expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ page: '2' });

    // A new field: page 1, keeps the order; the same field again flips it.
    await user.click(screen.getByRole('button', { name: 'E-mail' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ page: '1', sortField: 'email', sortOrder: 'desc' }),
    );
    await user.click(screen.getByRole('button', { name: 'E-mail' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ sortField: 'email', sortOrder: 'asc' }),
    );
    expect(screen.getByRole('columnheader', { name: 'E-mail' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Wallet' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ sortField: 'wallet', sortOrder: 'asc' }),
    );

    await user.selectOptions(screen.getByLabelText('Per page'), '25');
    await screen.findByText('Showing 1 to 25 of 42 results');
    expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ perPage: '25', page: '1' });
    expect(window.localStorage.getItem('perPage')).toBe('25');
  });

  it('search goes out once, a second after typing stops', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    const before = gw.to('GET', '/v1/contacts').length;
    const search = screen.getByRole('searchbox', { name: 'Search contacts' });
    expect(search).toHaveAttribute('placeholder', expect.stringMatching(/start of an e-mail, wallet or name/i));
    await user.type(search, '0xab');
    expect(gw.to('GET', '/v1/contacts')).toHaveLength(before);
    await waitFor(
      () => expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ searchString: '0xab', page: '1' }),
      {
        timeout: 2500,
      },
    );
    expect(gw.to('GET', '/v1/contacts')).toHaveLength(before + 1);
  });

  it('filters by list, status, source and custom attribute, and Clear filters resets them', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await screen.findByRole('option', { name: 'VIP' });
    await user.selectOptions(screen.getByLabelText('List'), 'l1');
    await user.selectOptions(screen.getByLabelText('Status'), 'bounced');
    await user.selectOptions(screen.getByLabelText('Source'), 'api');
    await user.selectOptions(screen.getByLabelText('Custom attribute'), 'tier');
    await user.type(screen.getByLabelText('Attribute value'), 'gold{Enter}');
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({
        listId: 'l1',
        status: 'bounced',
        source: 'api',
        attribute: 'tier',
        attributeValue: 'gold',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/contacts')).toEqual(expect.not.objectContaining({ listId: 'l1' })),
    );
    expect(gw.lastQuery('GET', '/v1/contacts')).toEqual({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  it('takes ?segmentId= and ?status= from the URL, shows a removable segment chip', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderContacts('/engagement/contacts?segmentId=s1&status=bounced');
    expect(await screen.findByText('Segment: Whales')).toBeInTheDocument();
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ segmentId: 's1', status: 'bounced' }),
    );
    expect(screen.getByLabelText('Status')).toHaveValue('bounced');
    await user.click(screen.getByRole('button', { name: 'Remove segment filter' }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/contacts')).not.toHaveProperty('segmentId'));
    expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ status: 'bounced' });
    expect(screen.queryByText(/Segment:/)).not.toBeInTheDocument();
  });

  it("?contact= (a contact's page, linked from other screens) opens that contact's slide-over", async () => {
    const gw = gateway({
      'GET /v1/contacts/:id': (_call, { id }) => json(makeContact(7, { _id: id, email: 'linked@example.test' })),
    });
    renderContacts('/engagement/contacts?contact=c77');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('E-mail')).toHaveValue('linked@example.test');
    expect(gw.to('GET', '/v1/contacts/c77')).toHaveLength(1);
  });

  it('shows and hides custom attribute columns from Columns, remembered in localStorage', async () => {
    gateway();
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    expect(screen.queryByRole('columnheader', { name: 'Tier' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Tier' }));
    expect(screen.getByRole('columnheader', { name: 'Tier' })).toBeInTheDocument();
    expect(within(rowsOf()[0]!).getByText('gold')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('contacts.columns') ?? '[]')).toEqual(['tier']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Tier' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: /Columns/ })).toHaveFocus();
  });

  it('export downloads the current filters as contacts.csv', async () => {
    const gw = gateway({
      'GET /v1/contacts/export': () =>
        new Response('email\nuser1@example.test\n', { headers: { 'content-type': 'text/csv' } }),
    });
    const createObjectURL = jest.fn(() => 'blob:contacts');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('contacts.csv');
    });
    const user = userEvent.setup({ delay: null });
    renderContacts('/engagement/contacts?listId=l2&status=unsubscribed');
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(gw.lastQuery('GET', '/v1/contacts/export')).toEqual({ listId: 'l2', status: 'unsubscribed' });
    expect(createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
  });

  it('an export cut before the end of the file is not saved: an error toast says so', async () => {
    gateway({
      'GET /v1/contacts/export': () => {
        // The gateway cuts the connection when a download fails after its first rows.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('email\nuser1@example.test\n'));
            controller.error(new TypeError('terminated'));
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/csv' } });
      },
    });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(failure).toHaveBeenCalledWith(
        'The download stopped before the end of the file. Nothing was saved: please try again.',
      ),
    );
    expect(click).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('export failure: an error toast, the button usable again', async () => {
    gateway({ 'GET /v1/contacts/export': () => json({ message: 'Export is busy.' }, 429) });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(failure).toHaveBeenCalledWith('Export is busy.'));
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });
});

describe('Contacts selection and bulk actions', () => {
  it('bulk add with no list chosen shows "You must select a list." and sends nothing', async () => {
    const gw = gateway({ 'POST /v1/contacts/bulk': () => json({ message: 'Done', affected: 1 }) });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select user2@example.test' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('1 selected')).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Add to list' }));
    const select = within(bar).getByRole('combobox', { name: 'List for the selected contacts' });
    expect(select).toHaveAccessibleDescription('You must select a list.');
    expect(select).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(bar).getByRole('button', { name: 'Remove from list' }));
    expect(gw.to('POST', '/v1/contacts/bulk')).toHaveLength(0);
  });

  it('bulk add of picked rows posts their ids, toasts the server message and refetches', async () => {
    const gw = gateway({ 'POST /v1/contacts/bulk': () => json({ message: '2 contacts added to VIP.', affected: 2 }) });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select user2@example.test' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select user3@example.test' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'List for the selected contacts' }), 'l1');
    const before = gw.to('GET', '/v1/contacts').length;
    await user.click(within(bar).getByRole('button', { name: 'Add to list' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('2 contacts added to VIP.'));
    expect(gw.to('POST', '/v1/contacts/bulk')[0]?.body).toEqual({
      action: 'add_to_list',
      listId: 'l1',
      selection: { ids: ['c2', 'c3'] },
    });
    await waitFor(() => expect(gw.to('GET', '/v1/contacts').length).toBeGreaterThan(before));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('"Select all 42 contacts that match" sends a filter selection', async () => {
    const gw = gateway({
      'POST /v1/contacts/bulk': () => json({ message: '42 contacts unsubscribed.', affected: 42 }),
    });
    const user = userEvent.setup({ delay: null });
    renderContacts('/engagement/contacts?status=subscribed');
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select all contacts on this page' }));
    expect(screen.getByText('All 10 contacts on this page are selected.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select all 42 contacts that match' }));
    expect(screen.getByText('All 42 contacts that match are selected.')).toBeInTheDocument();
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('42 selected')).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('42 contacts unsubscribed.'));
    expect(gw.to('POST', '/v1/contacts/bulk')[0]?.body).toEqual({
      action: 'unsubscribe',
      selection: { filter: { searchString: '', status: 'subscribed' } },
    });
  });

  it('the selection clears when a filter changes', async () => {
    gateway();
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select user1@example.test' }));
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Source'), 'widget');
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Select user1@example.test' })).not.toBeChecked());
  });

  it('delete asks how many contacts, then posts the delete', async () => {
    const gw = gateway({ 'POST /v1/contacts/bulk': () => json({ message: '2 contacts deleted.', affected: 2 }) });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select user1@example.test' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select user4@example.test' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Bulk actions' })).getByRole('button', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 contacts?' });
    expect(gw.to('POST', '/v1/contacts/bulk')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('2 contacts deleted.'));
    expect(gw.to('POST', '/v1/contacts/bulk')[0]?.body).toEqual({ action: 'delete', selection: { ids: ['c1', 'c4'] } });
  });
});

describe('Contact slide-over', () => {
  it('edit: opens from the row button, shows server field errors, closes on Escape with focus back', async () => {
    const gw = gateway({
      'PATCH /v1/contacts/:id': () =>
        json(
          {
            message: 'Invalid contact.',
            errors: {
              email: ['This e-mail address is already in use.'],
              'attributes.score': ['Enter a number.'],
              phone: ['Unknown field.'],
            },
          },
          400,
        ),
    });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    const edit = screen.getByRole('button', { name: 'Edit user1@example.test' });
    edit.focus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'Edit contact' });
    const email = within(panel).getByLabelText('E-mail');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveValue('user1@example.test');
    expect(within(panel).getByLabelText('Tier')).toHaveValue('gold');
    expect(within(panel).getByRole('checkbox', { name: 'VIP' })).toBeChecked();

    await user.clear(within(panel).getByLabelText('Score'));
    await user.type(within(panel).getByLabelText('Score'), '12');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('This e-mail address is already in use.')).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription('This e-mail address is already in use.');
    expect(within(panel).getByLabelText('Score')).toHaveAccessibleDescription('Enter a number.');
    expect(within(panel).getByRole('alert')).toHaveTextContent('Unknown field.');
    expect(gw.to('PATCH', '/v1/contacts/c1')[0]?.body).toMatchObject({
      email: 'user1@example.test',
      lists: ['l1', 'l2'],
      attributes: { tier: 'gold', score: 12 },
    });
    expect(success).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(edit).toHaveFocus());
  });

  it('add: posts the new contact, toasts, closes and refetches', async () => {
    const gw = gateway({
      'POST /v1/contacts': (call) => json({ ...makeContact(99), ...(call.body as object) }),
    });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('button', { name: 'Add contact' }));
    const panel = await screen.findByRole('dialog', { name: 'Add contact' });
    await user.type(within(panel).getByLabelText('Wallet address'), '0x52908400098527886E0F7030069857D2E4169EE7');
    await user.type(within(panel).getByLabelText('First name'), 'Ada');
    await user.selectOptions(within(panel).getByLabelText('Status'), 'unsubscribed');
    await user.click(within(panel).getByRole('checkbox', { name: 'Newsletter' }));
    const before = gw.to('GET', '/v1/contacts').length;
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Contact added.'));
    expect(gw.to('POST', '/v1/contacts')[0]?.body).toEqual({
      email: null,
      wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      first_name: 'Ada',
      last_name: '',
      status: 'unsubscribed',
      lists: ['l2'],
      attributes: {},
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(gw.to('GET', '/v1/contacts').length).toBeGreaterThan(before));
  });

  it('deletes one contact from the slide-over after confirming', async () => {
    const gw = gateway({ 'DELETE /v1/contacts/:id': () => json({ message: 'Contact deleted.' }) });
    const user = userEvent.setup({ delay: null });
    renderContacts();
    await screen.findByText('Showing 1 to 10 of 42 results');
    await user.click(screen.getByRole('button', { name: 'Edit user3@example.test' }));
    const panel = await screen.findByRole('dialog', { name: 'Edit contact' });
    await user.click(within(panel).getByRole('button', { name: 'Delete contact' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this contact?' });
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Contact deleted.'));
    expect(gw.to('DELETE', '/v1/contacts/c3')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await act(async () => {});
  });
});
