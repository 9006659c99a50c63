import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GeneralSettings } from '@console/shared/contracts';
import { consoleStore, type ConsoleState } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import GeneralSettingsPage from '../src/pages/general-settings-page';
import { fakeGateway, json, makeUser, renderPage, type Call } from './account-kit';
import { signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

const SAVED = 'Settings saved.';

function makeSettings(over: Partial<GeneralSettings> = {}): GeneralSettings {
  return {
    community_name: 'Acme DAO',
    default_sender_name: null,
    default_reply_to: 'hello@acme.test',
    postal_address: '1 Main St, Springfield',
    time_zone: 'Europe/Madrid',
    ...over,
  };
}

const initialState: ConsoleState = consoleStore.getState();
let success: jest.SpyInstance;

beforeEach(() => {
  signInAs(consoleStore, makeUser(['company_settings']));
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
});

const field = (name: string) => screen.getByLabelText(name);
const save = () => screen.getByRole('button', { name: 'Save' });
const NAME = 'Community name';
const SENDER = 'Default sender name (optional)';
const REPLY_TO = 'Default reply-to (optional)';
const ADDRESS = 'Postal address';
const ZONE = 'Community time zone';

async function renderSettings() {
  renderPage(<GeneralSettingsPage />, '/account/general-settings');
  await screen.findByRole('textbox', { name: NAME });
}

const patches = (gw: { to(method: string, path: string): Call[] }) =>
  gw.to('PATCH', '/v1/settings').map((call) => call.body);

describe('General Settings', () => {
  it('shows the settings in labelled fields, with the counter, hints and placeholder', async () => {
    fakeGateway({ 'GET /v1/settings': () => json(makeSettings()) });
    const user = userEvent.setup({ delay: null });
    await renderSettings();
    expect(screen.getByRole('heading', { level: 1, name: 'General Settings' })).toBeInTheDocument();
    expect(field(NAME)).toHaveValue('Acme DAO');
    expect(field(NAME)).toHaveAttribute('maxlength', '255');
    expect(field(NAME)).toHaveAccessibleDescription(expect.stringContaining('247/255'));
    await user.type(field(NAME), '!');
    expect(field(NAME)).toHaveAccessibleDescription(expect.stringContaining('246/255'));
    expect(field(SENDER)).toHaveValue('');
    expect(field(SENDER)).toHaveAttribute('placeholder', 'Acme DAO!');
    expect(field(SENDER)).toHaveAccessibleDescription(expect.stringContaining('use the community name'));
    expect(field(REPLY_TO)).toHaveValue('hello@acme.test');
    expect(field(ADDRESS).tagName).toBe('TEXTAREA');
    expect(field(ADDRESS)).toHaveAccessibleDescription(
      'Printed in the footer of your marketing e-mails, as anti-spam laws require.',
    );
    expect(screen.getByRole('combobox', { name: ZONE })).toHaveValue('Europe/Madrid');
  });

  it('sends only the changed fields, emptied optional ones as null, with Saving... meanwhile', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gw = fakeGateway({
      'GET /v1/settings': () => json(makeSettings()),
      'PATCH /v1/settings': async () => {
        await held;
        return json(
          makeSettings({ community_name: 'Acme Guild', default_sender_name: 'Acme news', postal_address: null }),
        );
      },
    });
    const user = userEvent.setup({ delay: null });
    await renderSettings();
    await user.clear(field(NAME));
    await user.type(field(NAME), 'Acme Guild');
    await user.type(field(SENDER), 'Acme news');
    await user.clear(field(ADDRESS));
    await user.click(save());

    const busy = await screen.findByRole('button', { name: /Saving\.\.\./ });
    expect(busy).toBeDisabled();
    expect(field(NAME)).toHaveAttribute('readonly');
    expect(screen.getByRole('combobox', { name: ZONE })).toBeDisabled();
    release();

    await waitFor(() => expect(success).toHaveBeenCalledWith(SAVED));
    expect(patches(gw)).toEqual([
      { community_name: 'Acme Guild', default_sender_name: 'Acme news', postal_address: null },
    ]);
    expect(field(NAME)).toHaveValue('Acme Guild');
    expect(field(ADDRESS)).toHaveValue('');
    expect(save()).toBeEnabled();
  });

  it("a new community time zone is sent and the session user reloaded (members follow the community's zone)", async () => {
    const { is_impersonating: _i, enableExperimentalFeatures: _e, ...sessionUser } = makeUser(['company_settings']);
    const gw = fakeGateway({
      'GET /v1/settings': () => json(makeSettings()),
      'PATCH /v1/settings': () => json(makeSettings({ time_zone: 'America/New_York' })),
      'POST /v1/auth/verify': () => json({ user: { ...sessionUser, time_zone: 'America/New_York' } }),
    });
    const user = userEvent.setup({ delay: null });
    await renderSettings();
    await user.selectOptions(screen.getByRole('combobox', { name: ZONE }), 'America/New_York');
    await user.click(save());
    await waitFor(() => expect(success).toHaveBeenCalledWith(SAVED));
    expect(patches(gw)).toEqual([{ time_zone: 'America/New_York' }]);
    await waitFor(() => expect(consoleStore.getState().user?.time_zone).toBe('America/New_York'));
  });

  it('checks the form before sending: a required name, a valid reply-to; focus on the first error', async () => {
    const gw = fakeGateway({ 'GET /v1/settings': () => json(makeSettings()) });
    const user = userEvent.setup({ delay: null });
    await renderSettings();
    await user.clear(field(NAME));
    await user.clear(field(REPLY_TO));
    await user.type(field(REPLY_TO), 'not-an-address');
    await user.click(save());
    await waitFor(() => expect(field(NAME)).toHaveFocus());
    expect(field(NAME)).toHaveAttribute('aria-invalid', 'true');
    expect(field(NAME)).toHaveAccessibleDescription(expect.stringContaining('Enter the community name.'));
    expect(field(REPLY_TO)).toHaveAccessibleDescription(expect.stringContaining('Enter a valid e-mail address.'));
    expect(patches(gw)).toHaveLength(0);
  });

  it("shows the server's field errors under their fields and focuses the first one", async () => {
    fakeGateway({
      'GET /v1/settings': () => json(makeSettings()),
      'PATCH /v1/settings': () =>
        json({ message: 'Invalid request', errors: { default_reply_to: ['This address cannot receive mail.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    await renderSettings();
    await user.clear(field(REPLY_TO));
    await user.type(field(REPLY_TO), 'replies@acme.test');
    await user.click(save());
    await waitFor(() =>
      expect(field(REPLY_TO)).toHaveAccessibleDescription(expect.stringContaining('This address cannot receive mail.')),
    );
    await waitFor(() => expect(field(REPLY_TO)).toHaveFocus());
    expect(success).not.toHaveBeenCalled();
    expect(save()).toBeEnabled();
  });

  it('a refusal without fields shows as an alert', async () => {
    fakeGateway({
      'GET /v1/settings': () => json(makeSettings()),
      'PATCH /v1/settings': () => json({ message: 'You do not have permission to do this.' }, 403),
    });
    const user = userEvent.setup({ delay: null });
    await renderSettings();
    await user.type(field(SENDER), 'Acme');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
    expect(success).not.toHaveBeenCalled();
  });

  it('settings that cannot be loaded show the reason', async () => {
    fakeGateway({ 'GET /v1/settings': () => json({ message: 'The server is busy.' }, 503) });
    renderPage(<GeneralSettingsPage />, '/account/general-settings');
    expect(await screen.findByRole('alert')).toHaveTextContent('The server is busy.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
