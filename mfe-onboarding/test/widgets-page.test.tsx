import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import WidgetsPage from '../src/pages/widgets-page';
import { fakeGateway, json, makeList, makeWidget, pageOf, renderPage, signIn } from './onboarding-kit';

jest.setTimeout(20_000);

const widgets = [makeWidget(1), makeWidget(2, { type: 'Login Widget', url: 'https://shop.test', count: 3 })];
const lists = [
  makeList(1, { name: 'Newsletter' }),
  makeList(2, { name: 'Imported', autoimport: true }),
  makeList(3, { name: 'Community sign-ups', community_id: 'comm1' }),
  makeList(4, { name: 'Holders' }),
];

let success: jest.SpyInstance;
let failure: jest.SpyInstance;

beforeEach(() => {
  window.localStorage.clear();
  signIn();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  failure = jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

function gateway(extra: Parameters<typeof fakeGateway>[0] = {}) {
  return fakeGateway({
    'GET /v1/widgets': () => json(pageOf(widgets, 12)),
    'GET /v1/widgets/:id': (_call, { id }) =>
      json(
        makeWidget(
          Number(id?.slice(1)),
          widgets.find((w) => w._id === id),
        ),
      ),
    'GET /v1/lists': () => json(pageOf(lists)),
    ...extra,
  });
}

/** The snippet in a code dialog's read-only textarea. */
function codeOf(dialog: HTMLElement): string {
  const box = within(dialog).getByRole('textbox');
  if (!(box instanceof HTMLTextAreaElement)) throw new Error('The code is not in a textarea');
  return box.value;
}

async function renderWidgets() {
  const view = renderPage(<WidgetsPage />, '/onboarding/widgets');
  await screen.findByText('Showing 1 to 2 of 12 results');
  return view;
}

describe('Widgets grid', () => {
  it('links to the community page (not in the sidebar unless impersonating, spec section 2)', async () => {
    gateway();
    await renderWidgets();
    const link = screen.getByRole('link', { name: 'community page' });
    expect(link).toHaveAttribute('href', '/onboarding/community-page');
  });

  it('shows the columns and the list query; sorting toggles; search is debounced', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    await renderWidgets();
    expect(screen.getByRole('heading', { name: 'Widgets' })).toBeInTheDocument();
    const grid = screen.getByRole('table', { name: 'Widgets' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Widget Type', 'Website / URL', 'Signups', 'Actions']);
    expect(within(grid).getByText('https://shop.test')).toBeInTheDocument();
    expect(gw.lastQuery('GET', '/v1/widgets')).toEqual({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    const sizes = within(screen.getByRole('combobox', { name: 'Per page' })).getAllByRole('option');
    expect(sizes.map((o) => o.textContent)).toEqual(['10', '25', '50', '100', '250', '500']);

    await user.click(screen.getByRole('button', { name: 'Signups' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/widgets')).toMatchObject({ sortField: 'count', sortOrder: 'desc' }),
    );
    await user.click(screen.getByRole('button', { name: 'Signups' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/widgets')).toMatchObject({ sortField: 'count', sortOrder: 'asc' }),
    );
    await user.click(screen.getByRole('button', { name: 'Website / URL' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/widgets')).toMatchObject({ sortField: 'url', sortOrder: 'asc' }),
    );
    await user.click(screen.getByRole('button', { name: 'Widget Type' }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/widgets')).toMatchObject({ sortField: 'type' }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Per page' }), '25');
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/widgets')).toMatchObject({ perPage: '25' }));

    const before = gw.to('GET', '/v1/widgets').length;
    await user.type(screen.getByRole('searchbox', { name: 'Search widgets' }), 'shop');
    // Nothing is sent per keystroke: one request after the 1 s debounce.
    expect(gw.to('GET', '/v1/widgets')).toHaveLength(before);
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/widgets')).toMatchObject({ searchString: 'shop' }), {
      timeout: 2500,
    });
    expect(gw.to('GET', '/v1/widgets')).toHaveLength(before + 1);
  });

  it('shows the empty text', async () => {
    gateway({ 'GET /v1/widgets': () => json(pageOf([])) });
    renderPage(<WidgetsPage />, '/onboarding/widgets');
    expect(await screen.findByRole('cell', { name: 'No widgets found.' })).toBeInTheDocument();
  });
});

describe('Create a widget', () => {
  it('offers only lists without auto-import or community; saves, toasts, closes and shows the code', async () => {
    const created = makeWidget(9, {
      type: 'Login Widget',
      target_id: 'l4',
      target_name: 'Holders',
      url: 'https://new.test',
    });
    const gw = gateway({ 'POST /v1/widgets': () => json(created, 201) });
    const user = userEvent.setup({ delay: null });
    await renderWidgets();
    await user.click(screen.getByRole('button', { name: 'Create a widget' }));
    const panel = await screen.findByRole('dialog', { name: 'Create a widget' });
    const target = within(panel).getByRole('combobox', { name: 'Target list' });
    await waitFor(() => expect(target).toBeEnabled());
    expect(
      within(target)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a list', 'Newsletter', 'Holders']);
    expect(gw.lastQuery('GET', '/v1/lists')).toEqual({ perPage: '1000' });
    const type = within(panel).getByRole('combobox', { name: 'Widget type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Subscription Widget', 'Login Widget']);
    expect(within(panel).getByLabelText('Website URL')).toHaveAttribute('maxLength', '255');

    // Client checks first: nothing is sent.
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(target).toHaveAccessibleDescription('Choose a list.');
    expect(within(panel).getByLabelText('Website URL')).toHaveAccessibleDescription('Enter the website URL.');
    expect(gw.to('POST', '/v1/widgets')).toHaveLength(0);

    await user.selectOptions(type, 'Login Widget');
    await user.selectOptions(target, 'l4');
    await user.type(within(panel).getByLabelText('Website URL'), 'https://new.test');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));

    const code = await screen.findByRole('dialog', { name: 'Widget Code' });
    expect(gw.to('POST', '/v1/widgets')[0]?.body).toEqual({
      type: 'Login Widget',
      target_id: 'l4',
      url: 'https://new.test',
    });
    expect(success).toHaveBeenCalledWith('Widget saved.', { duration: 2000 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create a widget' })).not.toBeInTheDocument());
    expect(codeOf(code)).toContain('data-widget-id="w9"');
    expect(codeOf(code)).toContain('data-features="login"');
  });

  it('server errors show under the fields and the message as an error toast', async () => {
    gateway({
      'POST /v1/widgets': () =>
        json({ message: 'The widget could not be saved.', errors: { url: ['Enter a valid <URL>.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    await renderWidgets();
    await user.click(screen.getByRole('button', { name: 'Create a widget' }));
    const panel = await screen.findByRole('dialog', { name: 'Create a widget' });
    const target = within(panel).getByRole('combobox', { name: 'Target list' });
    await waitFor(() => expect(target).toBeEnabled());
    await user.selectOptions(target, 'l1');
    await user.type(within(panel).getByLabelText('Website URL'), 'nope');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(panel).getByLabelText('Website URL')).toHaveAccessibleDescription('Enter a valid <URL>.'),
    );
    expect(failure).toHaveBeenCalledWith('The widget could not be saved.', { duration: 2000 });
    expect(success).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Create a widget' })).toBeInTheDocument();
  });
});

describe('Edit a widget', () => {
  it('opens the slide-over filled in, PATCHes the changes, toasts and closes without the code dialog', async () => {
    const edited = makeWidget(1, { url: 'https://moved.test', target_id: 'l4', target_name: 'Holders' });
    const gw = gateway({ 'PATCH /v1/widgets/:id': () => json(edited) });
    const user = userEvent.setup({ delay: null });
    await renderWidgets();
    await user.click(screen.getByRole('button', { name: 'Edit the Subscription Widget on https://site1.test' }));
    const panel = await screen.findByRole('dialog', { name: 'Edit widget' });
    const target = within(panel).getByRole('combobox', { name: 'Target list' });
    await waitFor(() => expect(target).toBeEnabled());
    expect(within(panel).getByRole('combobox', { name: 'Widget type' })).toHaveValue('Subscription Widget');
    expect(target).toHaveValue('l1');
    const url = within(panel).getByLabelText('Website URL');
    expect(url).toHaveValue('https://site1.test');

    await user.selectOptions(target, 'l4');
    await user.clear(url);
    await user.type(url, 'https://moved.test');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(gw.to('PATCH', '/v1/widgets/w1')).toHaveLength(1));
    expect(gw.to('PATCH', '/v1/widgets/w1')[0]?.body).toEqual({
      type: 'Subscription Widget',
      target_id: 'l4',
      url: 'https://moved.test',
    });
    expect(gw.to('POST', '/v1/widgets')).toHaveLength(0);
    expect(success).toHaveBeenCalledWith('Widget saved.', { duration: 2000 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit widget' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Widget Code' })).not.toBeInTheDocument();
  });
});

describe('Widget Code dialog', () => {
  it('subscribe variant: fetched by id, with the wallet-connect and RPC placeholders; Copy Code and Close Window', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    // user-event installs a clipboard stand-in on setup: watch it.
    const writeText = jest.spyOn(navigator.clipboard, 'writeText');
    await renderWidgets();
    await user.click(
      screen.getByRole('button', { name: 'View code of the Subscription Widget on https://site1.test' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Widget Code' });
    expect(gw.to('GET', '/v1/widgets/w1')).toHaveLength(1);
    expect(within(dialog).getByRole('textbox')).toHaveAttribute('readonly');
    const snippet = codeOf(dialog);
    expect(snippet).toContain('src="https://cdn.test/sdk/emt-sdk.js"');
    expect(snippet).toContain('data-community-id="comm1"');
    expect(snippet).toContain('data-community-alias="acme"');
    expect(snippet).toContain('data-features="subscribe"');
    expect(snippet).toContain('data-wallet-connect-project-id="YOUR_WALLETCONNECT_PROJECT_ID"');
    expect(snippet).toContain('data-rpc-url="YOUR_RPC_URL"');
    expect(snippet).not.toContain('data-permission');

    await user.click(within(dialog).getByRole('button', { name: 'Copy Code' }));
    expect(writeText).toHaveBeenCalledWith(snippet);
    expect(success).toHaveBeenCalledWith('Code copied to clipboard.', { duration: 2000 });
    await user.click(within(dialog).getByRole('button', { name: 'Close Window' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Widget Code' })).not.toBeInTheDocument());
  });

  it('login variant: type wallet and write permission; Escape closes', async () => {
    gateway();
    const user = userEvent.setup({ delay: null });
    await renderWidgets();
    await user.click(screen.getByRole('button', { name: 'View code of the Login Widget on https://shop.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Widget Code' });
    const snippet = codeOf(dialog);
    expect(snippet).toContain('data-features="login"');
    expect(snippet).toContain('data-type="wallet"');
    expect(snippet).toContain('data-permission="write"');
    expect(snippet).not.toContain('YOUR_RPC_URL');
    expect(snippet).not.toContain('YOUR_WALLETCONNECT_PROJECT_ID');
    // Shown as text, never as HTML.
    expect(dialog.querySelector('script')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Widget Code' })).not.toBeInTheDocument());
  });
});

describe('Delete a widget', () => {
  it('confirms, deletes, closes and toasts Widget deleted. for 2000 ms', async () => {
    const gw = gateway({ 'DELETE /v1/widgets/:id': () => json({ message: 'Deleted.' }) });
    const user = userEvent.setup({ delay: null });
    await renderWidgets();
    const before = gw.to('GET', '/v1/widgets').length;
    await user.click(screen.getByRole('button', { name: 'Delete the Login Widget on https://shop.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this widget?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Widget deleted.', { duration: 2000 }));
    expect(gw.to('DELETE', '/v1/widgets/w2')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete this widget?' })).not.toBeInTheDocument());
    await waitFor(() => expect(gw.to('GET', '/v1/widgets').length).toBeGreaterThan(before));
  });

  it('a failure closes the confirm dialog and 100 ms later shows the first message, with no Cancel', async () => {
    jest.useFakeTimers();
    const gw = gateway({
      'DELETE /v1/widgets/:id': () =>
        json({ message: 'Cannot delete.', errors: { widget: ['<i>Widget</i> has pending sign-ups.', 'Other'] } }, 409),
    });
    const user = userEvent.setup({ delay: null, advanceTimers: jest.advanceTimersByTime });
    await renderWidgets();
    await user.click(screen.getByRole('button', { name: 'Delete the Login Widget on https://shop.test' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this widget?' });
    const button = within(confirm).getByRole('button', { name: 'Confirm' });
    fireEvent.click(button);
    // Let the DELETE settle without moving the (fake) clock.
    const realTick = () =>
      new Promise<void>((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve));
    for (
      let i = 0;
      i < 50 && (gw.to('DELETE', '/v1/widgets/w2').length === 0 || button.getAttribute('aria-busy'));
      i += 1
    ) {
      await act(realTick);
    }
    expect(gw.to('DELETE', '/v1/widgets/w2')).toHaveLength(1);
    expect(button).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('dialog', { name: 'Unable to delete widget' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(99));
    expect(screen.queryByRole('dialog', { name: 'Unable to delete widget' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    const error = screen.getByRole('dialog', { name: 'Unable to delete widget' });
    expect(error).toHaveTextContent('<i>Widget</i> has pending sign-ups.');
    expect(error.querySelector('i')).toBeNull();
    expect(within(error).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(300));
    expect(screen.queryByRole('dialog', { name: 'Delete this widget?' })).not.toBeInTheDocument();
    await act(async () => {
      fireEvent.click(within(error).getByRole('button', { name: 'Confirm' }));
    });
    act(() => jest.advanceTimersByTime(300));
    expect(screen.queryByRole('dialog', { name: 'Unable to delete widget' })).not.toBeInTheDocument();
    expect(success).not.toHaveBeenCalled();
  });
});
