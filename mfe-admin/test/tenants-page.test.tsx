import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import { applet, fakeGateway, json, signInAdmin } from './admin-kit';
import { OPTIONS, PLANS, STATS, makeTenant, pageOf, renderTenants } from './tenants-kit';

jest.setTimeout(20_000);

const TENANTS = Array.from({ length: 10 }, (_, i) => makeTenant(i + 1));

function gateway(extra: Parameters<typeof fakeGateway>[0] = {}) {
  // `extra` replaces a default route of the same name (keeping its place in the order).
  return fakeGateway({
    'GET /v1/tenants/options': () => json(OPTIONS),
    'GET /v1/tenants/stats': () => json(STATS),
    'GET /v1/tenants/:id': (_call, { id }) => json(TENANTS.find((t) => t._id === id) ?? makeTenant(99)),
    'GET /v1/tenants': () => json(pageOf(TENANTS, 42)),
    'GET /v1/plans': () => json({ records: PLANS }),
    'GET /v1/applets': () => json(pageOf([applet({ _id: 'a1' })])),
    ...extra,
  });
}

let success: jest.SpyInstance;
beforeEach(() => {
  signInAdmin();
  window.localStorage.clear();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => jest.restoreAllMocks());

async function ready() {
  await screen.findByText('Showing 1 to 10 of 42 results');
}

async function openTenant(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('button', { name }));
  const panel = await screen.findByTestId('tenant-slide-over');
  await within(panel).findByRole('form', { name: 'Name and plan' });
  return panel;
}

describe('Tenants page: the grid', () => {
  it('lists tenants with plan, owner, contacts, e-mails against the volume, billing; figures above from stats', async () => {
    const gw = gateway();
    renderTenants();
    await ready();
    const row = screen.getByRole('button', { name: 'Tenant 2' }).closest('tr');
    if (!row) throw new Error('no row');
    const cells = within(row);
    expect(cells.getByText('START UP')).toBeInTheDocument();
    expect(cells.getByText('owner2@t2.test')).toBeInTheDocument();
    expect(cells.getByRole('button', { name: 'Impersonate owner2@t2.test' })).toBeInTheDocument();
    expect(cells.getByText('200')).toBeInTheDocument();
    expect(cells.getByText('2,400 of 60,000')).toBeInTheDocument();
    expect(cells.getByText('Active')).toBeInTheDocument();
    const figures = screen.getByRole('region', { name: 'Tenant figures' });
    expect(within(figures).getByText('12,345')).toBeInTheDocument();
    expect(within(figures).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(figures).getByRole('table', { name: 'Tenants by plan' })).toBeInTheDocument();
    expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      includeOwner: 'true',
    });
    // The figures take the grid's query.
    const { includeOwner: _owner, ...listQuery } = gw.lastQuery('GET', '/v1/tenants') ?? {};
    expect(gw.lastQuery('GET', '/v1/tenants/stats')).toEqual(listQuery);
  });

  it('reloads on sort, page, page size and a debounced search; page size is saved', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Name/ }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({ sortField: 'name', page: '1' }));
    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({ sortField: 'name', page: '2' }));
    const perPage = screen.getByRole('combobox', { name: 'Per page' });
    await waitFor(() => expect(perPage).toBeEnabled()); // disabled for a moment after a page change
    await user.selectOptions(perPage, '25');
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({ perPage: '25' }));
    expect(window.localStorage.getItem('perPage')).toBe('25');
    const before = gw.to('GET', '/v1/tenants').length;
    await user.type(screen.getByRole('searchbox', { name: 'Search tenants' }), 'acme');
    expect(gw.to('GET', '/v1/tenants')).toHaveLength(before);
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({ searchString: 'acme', page: '1' }), {
      timeout: 2500,
    });
    expect(gw.lastQuery('GET', '/v1/tenants/stats')).toMatchObject({ searchString: 'acme' });
  });

  it('filters by plan, billing state, a custom range and a list, in the URL; Clear filters resets them', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Plan' }), 'startup');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Billing state' }), 'past_due');
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({
        filters: '{"plan":["startup"],"billing_state":["past_due"]}',
        page: '1',
      }),
    );
    expect(gw.lastQuery('GET', '/v1/tenants/stats')).toMatchObject({
      filters: '{"plan":["startup"],"billing_state":["past_due"]}',
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Created' }), 'custom');
    await user.type(screen.getByLabelText('From'), '2026-01-01');
    await user.type(screen.getByLabelText('To'), '2026-01-31');
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({
        dateRange: 'custom',
        dateFrom: '2026-01-01',
        dateTo: '2026-01-31',
      }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'List' }), 'l1');
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({ listId: 'l1' }));
    const location = screen.getByTestId('location').textContent ?? '';
    const params = new URLSearchParams(location.split('?')[1]);
    expect(Object.fromEntries(params)).toEqual({
      plan: 'startup',
      billing_state: 'past_due',
      dateRange: 'custom',
      dateFrom: '2026-01-01',
      dateTo: '2026-01-31',
      listId: 'l1',
    });
    // A preset range drops the custom days.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Created' }), 'last_30_days');
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({ dateRange: 'last_30_days' }));
    expect(gw.lastQuery('GET', '/v1/tenants')).not.toHaveProperty('dateFrom');
    expect(screen.getByTestId('location').textContent).not.toMatch(/dateFrom|dateTo/);
    expect(screen.queryByLabelText('From')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/tenants')).not.toHaveProperty('filters'));
    expect(gw.lastQuery('GET', '/v1/tenants')).not.toHaveProperty('dateRange');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/tenants$/);
  });

  it('starts from the filters a link carries', async () => {
    const gw = gateway();
    renderTenants('/tenants?plan=basic&dateRange=last_30_days&billing_state=bogus');
    await ready();
    expect(gw.lastQuery('GET', '/v1/tenants')).toMatchObject({
      filters: '{"plan":["basic"]}',
      dateRange: 'last_30_days',
    });
    expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue('basic');
  });

  it('logs a failed list or stats fetch and offers Retry (the server message is not shown)', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    let failing = true;
    const gw = gateway({
      'GET /v1/tenants/stats': () => (failing ? json({ message: 'stats exploded' }, 500) : json(STATS)),
      'GET /v1/tenants': () => (failing ? json({ message: 'db exploded' }, 500) : json(pageOf(TENANTS, 42))),
    });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    expect(await screen.findByText('The tenants could not be loaded.')).toBeInTheDocument();
    expect(await screen.findByText('The figures could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByText(/exploded/)).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('[console] tenant list failed', expect.anything());
    expect(logged).toHaveBeenCalledWith('[console] tenant stats failed', expect.anything());
    failing = false;
    const [retryFigures, retryList] = screen.getAllByRole('button', { name: 'Retry' });
    await user.click(retryList!);
    await ready();
    await user.click(retryFigures!);
    await screen.findByRole('region', { name: 'Tenant figures' });
    expect(gw.to('GET', '/v1/tenants').length).toBeGreaterThanOrEqual(2);
  });
});

describe('Tenants page: the slide-over', () => {
  it('shows the users with Impersonate, and the server errors of an edit next to the fields', async () => {
    const gw = gateway({
      'PATCH /v1/tenants/:id': () =>
        json({ message: 'Validation failed', errors: { name: ['A tenant with this name exists.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    const panel = await openTenant(user, 'Tenant 3');
    expect(within(panel).getByRole('button', { name: 'Impersonate owner3@t3.test' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Impersonate staff3@t3.test' })).toBeInTheDocument();
    // The role as Manage Users names it (memberRoleName): the owner reads 'Owner', nothing else.
    expect(within(panel).getByText('owner3@t3.test · Owner')).toBeInTheDocument();
    expect(within(panel).getByText('staff3@t3.test · Member')).toBeInTheDocument();
    expect(within(panel).queryByText('(owner)')).not.toBeInTheDocument();
    const form = within(panel).getByRole('form', { name: 'Name and plan' });
    const name = within(form).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Tenant 1');
    await user.selectOptions(within(form).getByLabelText('Plan'), 'p-basic');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('A tenant with this name exists.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveAccessibleDescription('A tenant with this name exists.');
    const patch = gw.to('PATCH', '/v1/tenants/t3')[0];
    expect(patch?.body).toEqual({ name: 'Tenant 1', plan_id: 'p-basic' });
  });

  it('saves settings; a refusal shows the server message and field errors', async () => {
    let refuse = true;
    const gw = gateway({
      'PATCH /v1/tenants/:id/settings': () =>
        refuse
          ? json({ message: 'Validation failed', errors: { billing_customer_id: ['No such customer.'] } }, 400)
          : json(makeTenant(1, { _id: 't1' })),
    });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    const panel = await openTenant(user, 'Tenant 1');
    const form = within(panel).getByRole('form', { name: 'Settings' });
    await user.clear(within(form).getByLabelText('Tax rate (%)'));
    await user.type(within(form).getByLabelText('Tax rate (%)'), '150');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await within(form).findByText('Enter a tax rate from 0 to 100.')).toBeInTheDocument();
    expect(gw.to('PATCH', '/v1/tenants/t1/settings')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Tax rate (%)'));
    await user.type(within(form).getByLabelText('Tax rate (%)'), '7.5');
    await user.type(within(form).getByLabelText('E-mail volume override'), '90000');
    await user.click(await within(form).findByRole('checkbox', { name: 'Token gate' }));
    await user.click(within(form).getByRole('checkbox', { name: /Sending paused/ }));
    await user.clear(within(form).getByLabelText('Billing customer id'));
    await user.type(within(form).getByLabelText('Billing customer id'), 'cus_nope');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await within(form).findByText('No such customer.')).toBeInTheDocument();
    expect(gw.to('PATCH', '/v1/tenants/t1/settings')[0]?.body).toEqual({
      tax_rate: 7.5,
      email_volume_override: 90000,
      enabled_applets: ['a1'],
      billing_customer_id: 'cus_nope',
      sending_paused: true,
    });
    expect(gw.lastQuery('GET', '/v1/applets')).toMatchObject({ perPage: '1000' });

    refuse = false;
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Settings have been saved.'));
  });

  it('the applet picker shows its fetch error', async () => {
    gateway({ 'GET /v1/applets': () => json({ message: 'Applets are resting.' }, 503) });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    const panel = await openTenant(user, 'Tenant 1');
    expect(await within(panel).findByText('Applets are resting.')).toBeInTheDocument();
  });

  it('resends the welcome e-mail, and shows a refusal', async () => {
    let refuse = true;
    const gw = gateway({
      'GET /v1/tenants/:id/resend-welcome-email': () =>
        refuse ? json({ message: 'The owner has already set a password.' }, 409) : json({ message: 'Sent.' }),
    });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    const panel = await openTenant(user, 'Tenant 1');
    await user.click(within(panel).getByRole('button', { name: 'Resend welcome e-mail' }));
    expect(await within(panel).findByText('The owner has already set a password.')).toBeInTheDocument();
    refuse = false;
    await user.click(within(panel).getByRole('button', { name: 'Resend welcome e-mail' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('The welcome e-mail has been sent again.'));
    expect(gw.to('GET', '/v1/tenants/t1/resend-welcome-email')).toHaveLength(2);
  });
});

describe('Tenants page: create and delete', () => {
  it('create: own and server field errors next to the fields, then success, toast and reload', async () => {
    let refuse = true;
    const gw = gateway({
      'POST /v1/tenants': (call) =>
        refuse
          ? json({ message: 'Validation failed', errors: { owner_email: ['This e-mail is already in use.'] } }, 400)
          : json(makeTenant(50, { name: String((call.body as { name: string }).name) })),
    });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    await user.click(screen.getByRole('button', { name: 'Create tenant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create tenant' });
    await user.click(within(dialog).getByRole('button', { name: 'Create tenant' }));
    expect(within(dialog).getByText('Enter the tenant name.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a plan.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the first name.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter an e-mail address.')).toBeInTheDocument();
    expect(gw.to('POST', '/v1/tenants')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Moon DAO');
    await user.selectOptions(await within(dialog).findByLabelText('Plan'), 'p-startup');
    await user.type(within(dialog).getByLabelText('Owner’s first name'), 'Luna');
    await user.type(within(dialog).getByLabelText('Owner’s last name'), 'Owner');
    await user.type(within(dialog).getByLabelText('Owner’s e-mail'), 'luna@moon.test');
    await user.click(within(dialog).getByRole('button', { name: 'Create tenant' }));
    expect(await within(dialog).findByText('This e-mail is already in use.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Owner’s e-mail')).toHaveAccessibleDescription(
      'This e-mail is already in use.',
    );
    expect(gw.to('POST', '/v1/tenants')[0]?.body).toEqual({
      name: 'Moon DAO',
      plan_id: 'p-startup',
      owner_first_name: 'Luna',
      owner_last_name: 'Owner',
      owner_email: 'luna@moon.test',
    });

    refuse = false;
    const lists = gw.to('GET', '/v1/tenants').length;
    await user.click(within(dialog).getByRole('button', { name: 'Create tenant' }));
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('Moon DAO was created. The owner has been sent a welcome e-mail.'),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create tenant' })).not.toBeInTheDocument());
    expect(gw.to('GET', '/v1/tenants').length).toBeGreaterThan(lists);
  });

  it('delete: enabled only once the name is typed; the tenant leaves the grid at once; a refusal is shown', async () => {
    let refuse = true;
    let remaining = TENANTS;
    let releaseList: () => void = () => {};
    const gw = gateway({
      'DELETE /v1/tenants/:id': () => {
        if (refuse) return json({ message: 'This tenant cannot be deleted now.' }, 409);
        remaining = TENANTS.filter((t) => t._id !== 't4');
        return json({ message: 'Deleted.' });
      },
      'GET /v1/tenants': async () => {
        if (remaining !== TENANTS) await new Promise<void>((resolve) => (releaseList = resolve));
        return json(pageOf(remaining, remaining === TENANTS ? 42 : 41));
      },
    });
    const user = userEvent.setup({ delay: null });
    renderTenants();
    await ready();
    const panel = await openTenant(user, 'Tenant 4');
    await user.click(within(panel).getByRole('button', { name: 'Delete tenant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Tenant 4?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    const input = within(dialog).getByLabelText('Type Tenant 4 to confirm');
    await user.type(input, 'tenant 4');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'Tenant 4');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await within(dialog).findByText('This tenant cannot be deleted now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tenant 4', hidden: true })).toBeInTheDocument();

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    // Gone before the list is read again.
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Tenant 4', hidden: true })).not.toBeInTheDocument(),
    );
    expect(success).toHaveBeenCalledWith('Tenant 4 was deleted.');
    expect(gw.to('DELETE', '/v1/tenants/t4')).toHaveLength(2);
    releaseList();
    await screen.findByText('Showing 1 to 9 of 41 results');
  });
});
