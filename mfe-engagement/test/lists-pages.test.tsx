import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import ListPage from '../src/pages/list-page';
import ListsPage from '../src/pages/lists-page';
import { fakeGateway, json, makeContact, makeList, pageOf, renderAt, setupGatewayConfig } from './contacts-harness';

jest.setTimeout(20_000);

const vip = makeList(1, { name: 'VIP', description: 'Our biggest holders', member_count: 2, autoimport: true });
const lists = [vip, makeList(2, { name: 'Newsletter', member_count: 1, community_id: 'comm1' })];
const members = [makeContact(1, { lists: ['l1'] }), makeContact(2, { lists: ['l1'] })];

let success: jest.SpyInstance;

beforeAll(() => setupGatewayConfig());
beforeEach(() => {
  window.localStorage.clear();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => jest.restoreAllMocks());

describe('Lists screen', () => {
  function gateway(extra: Parameters<typeof fakeGateway>[0] = {}) {
    return fakeGateway({ 'GET /v1/lists': () => json(pageOf(lists, 12)), ...extra });
  }

  it('lists name links, badges, members and the list query; sorts and searches', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderAt(<ListsPage />, { url: '/engagement/lists', path: '/engagement/lists' });
    expect(screen.getByRole('heading', { name: 'Lists' })).toBeInTheDocument();
    expect(await screen.findByText('Showing 1 to 2 of 12 results')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'VIP' })).toHaveAttribute('href', '/engagement/lists/l1');
    expect(screen.getByText('Auto-import')).toBeInTheDocument();
    expect(screen.getByText('Community')).toBeInTheDocument();
    expect(screen.getByText('Our biggest holders')).toBeInTheDocument();
    expect(gw.lastQuery('GET', '/v1/lists')).toEqual({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    await user.click(screen.getByRole('button', { name: 'Members' }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/lists')).toMatchObject({ sortField: 'member_count' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search lists' }), 'vi');
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/lists')).toMatchObject({ searchString: 'vi' }), {
      timeout: 2500,
    });
  });

  it('shows the empty text', async () => {
    fakeGateway({ 'GET /v1/lists': () => json(pageOf([])) });
    renderAt(<ListsPage />, { url: '/engagement/lists', path: '/engagement/lists' });
    expect(await screen.findByRole('cell', { name: 'No lists found.' })).toBeInTheDocument();
  });

  it('create: a duplicate name comes back as a field error under Name; the dialog stays open', async () => {
    const gw = gateway({
      'POST /v1/lists': () =>
        json({ message: 'Invalid list.', errors: { name: ['A list with this name already exists.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    renderAt(<ListsPage />, { url: '/engagement/lists', path: '/engagement/lists' });
    await screen.findByText('Showing 1 to 2 of 12 results');
    await user.click(screen.getByRole('button', { name: 'Create list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create list' });

    // An empty name is caught before any request.
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Enter a name.');
    expect(gw.to('POST', '/v1/lists')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'VIP');
    await user.type(within(dialog).getByLabelText('Description'), 'Again');
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
        'A list with this name already exists.',
      ),
    );
    expect(gw.to('POST', '/v1/lists')[0]?.body).toEqual({ name: 'VIP', description: 'Again' });
    expect(screen.getByRole('dialog', { name: 'Create list' })).toBeInTheDocument();
    expect(success).not.toHaveBeenCalled();
  });

  it('edit saves with PATCH and refetches', async () => {
    const gw = gateway({ 'PATCH /v1/lists/:id': (call) => json({ ...vip, ...(call.body as object) }) });
    const user = userEvent.setup({ delay: null });
    renderAt(<ListsPage />, { url: '/engagement/lists', path: '/engagement/lists' });
    await screen.findByText('Showing 1 to 2 of 12 results');
    await user.click(screen.getByRole('button', { name: 'Edit VIP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit list' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('VIP');
    await user.clear(name);
    await user.type(name, 'Whales');
    const before = gw.to('GET', '/v1/lists').length;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('List saved.'));
    expect(gw.to('PATCH', '/v1/lists/l1')[0]?.body).toEqual({ name: 'Whales', description: 'Our biggest holders' });
    await waitFor(() => expect(gw.to('GET', '/v1/lists').length).toBeGreaterThan(before));
  });

  it('delete confirms with the name and member count, then deletes', async () => {
    const gw = gateway({ 'DELETE /v1/lists/:id': () => json({ message: 'List deleted.' }) });
    const user = userEvent.setup({ delay: null });
    renderAt(<ListsPage />, { url: '/engagement/lists', path: '/engagement/lists' });
    await screen.findByText('Showing 1 to 2 of 12 results');
    await user.click(screen.getByRole('button', { name: 'Delete VIP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete list VIP?' });
    expect(dialog).toHaveTextContent('Its 2 contacts stay in your audience.');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('List deleted.'));
    expect(gw.to('DELETE', '/v1/lists/l1')).toHaveLength(1);
  });
});

describe('List detail', () => {
  function gateway(extra: Parameters<typeof fakeGateway>[0] = {}) {
    return fakeGateway({
      'GET /v1/lists/:id': (_call, { id }) => (id === 'l1' ? json(vip) : json({ message: 'List not found.' }, 404)),
      'GET /v1/lists': () => json(pageOf(lists)),
      'GET /v1/custom-attributes': () => json(pageOf([])),
      'GET /v1/contacts': (call) =>
        call.params.get('listId') === 'l1'
          ? json(pageOf(members))
          : json(pageOf([members[0]!, makeContact(3), makeContact(4)])),
      ...extra,
    });
  }

  function renderList(id = 'l1') {
    return renderAt(<ListPage />, { url: `/engagement/lists/${id}`, path: '/engagement/lists/:id' });
  }

  it('shows the list heading, member count and description over the members grid fixed to the list', async () => {
    const gw = gateway();
    renderList();
    expect(await screen.findByRole('heading', { name: 'VIP' })).toBeInTheDocument();
    expect(screen.getByText('2 members')).toBeInTheDocument();
    expect(screen.getByText('Our biggest holders')).toBeInTheDocument();
    expect(await screen.findByText('Showing 1 to 2 of 2 results')).toBeInTheDocument();
    expect(gw.lastQuery('GET', '/v1/contacts')).toMatchObject({ listId: 'l1', page: '1', perPage: '10' });
    expect(screen.queryByRole('combobox', { name: 'List' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Lists' })).toHaveAttribute('href', '/engagement/lists');
  });

  it('a 404 shows "This list does not exist." with a link back', async () => {
    gateway();
    renderList('gone');
    expect(await screen.findByText('This list does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to lists' })).toHaveAttribute('href', '/engagement/lists');
  });

  it('Add contacts: search, tick, PATCH /v1/lists/{id}/contacts', async () => {
    const gw = gateway({
      'PATCH /v1/lists/:id/contacts': () => json({ message: '2 contacts added to VIP.', affected: 2 }),
    });
    const user = userEvent.setup({ delay: null });
    renderList();
    await screen.findByText('Showing 1 to 2 of 2 results');
    await user.click(screen.getByRole('button', { name: 'Add contacts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add contacts to VIP' });
    const member = await within(dialog).findByRole('checkbox', { name: /user1@example.test/ });
    expect(member).toBeChecked();
    expect(member).toBeDisabled();
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search contacts' }), 'user');
    await waitFor(
      () =>
        expect(
          gw.calls.some((call) => call.path === '/v1/contacts' && call.params.get('searchString') === 'user'),
        ).toBe(true),
      { timeout: 2500 },
    );
    await user.click(within(dialog).getByRole('checkbox', { name: /user3@example.test/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /user4@example.test/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add 2 contacts' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('2 contacts added to VIP.'));
    expect(gw.to('PATCH', '/v1/lists/l1/contacts')[0]?.body).toEqual({ contacts: ['c3', 'c4'] });
  });

  it('Remove from list on picked rows: DELETE /v1/lists/{id}/contacts', async () => {
    const gw = gateway({
      'DELETE /v1/lists/:id/contacts': () => json({ message: '1 contact removed from VIP.', affected: 1 }),
    });
    const user = userEvent.setup({ delay: null });
    renderList();
    await screen.findByText('Showing 1 to 2 of 2 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select user2@example.test' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Bulk actions' })).getByRole('button', { name: 'Remove from list' }),
    );
    await waitFor(() => expect(success).toHaveBeenCalledWith('1 contact removed from VIP.'));
    expect(gw.to('DELETE', '/v1/lists/l1/contacts')[0]?.body).toEqual({ contacts: ['c2'] });
    expect(gw.to('POST', '/v1/contacts/bulk')).toHaveLength(0);
  });

  it('Remove from list with "all that match": POST /v1/contacts/bulk remove_from_list', async () => {
    const many = Array.from({ length: 10 }, (_, i) => makeContact(i + 1, { lists: ['l1'] }));
    const gw = gateway({
      'GET /v1/contacts': () => json(pageOf(many, 30)),
      'POST /v1/contacts/bulk': () => json({ message: '30 contacts removed from VIP.', affected: 30 }),
    });
    const user = userEvent.setup({ delay: null });
    renderList();
    await screen.findByText('Showing 1 to 10 of 30 results');
    await user.click(screen.getByRole('checkbox', { name: 'Select all contacts on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 30 contacts that match' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Bulk actions' })).getByRole('button', { name: 'Remove from list' }),
    );
    await waitFor(() => expect(success).toHaveBeenCalledWith('30 contacts removed from VIP.'));
    expect(gw.to('POST', '/v1/contacts/bulk')[0]?.body).toEqual({
      action: 'remove_from_list',
      listId: 'l1',
      selection: { filter: { searchString: '', listId: 'l1' } },
    });
    expect(gw.to('DELETE', '/v1/lists/l1/contacts')).toHaveLength(0);
  });
});
