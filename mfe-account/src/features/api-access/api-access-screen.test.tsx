import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_FEATURES, TENANT_PERMISSIONS } from '@console/shared/access';
import type { ApiKey, CreatedApiKey } from '@console/shared/contracts';
import { consoleStore, type ConsoleState, type ConsoleUser } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import ApiAccessPage from '../../pages/api-access-page';
import { fakeGateway, json, makeUser, renderPage } from '../../../test/account-kit';
import { bodyOf, signInAs } from '../../../../jest/fake-gateway';
import { EMPTY_TEXT } from './api-access-screen';
import { SECRET_WARNING } from './secret-dialog';

jest.setTimeout(20_000);

const SECRET = 'ck_live_8fKq2ZtW0abcdefghijklmnopqrstuvwxyzABCDEFG';

function makeKey(id: string, name: string, over: Partial<ApiKey> = {}): ApiKey {
  return {
    _id: id,
    name,
    scope: 'full',
    prefix: 'ck_live_8fKq2ZtW',
    status: 'active',
    created_by: { _id: 'u1', email: 'owner@lab.test' },
    created_at: '2026-11-01T09:00:00.000Z',
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
    last_used_ip: null,
    ...over,
  };
}

const page = (records: ApiKey[]) => ({
  records,
  pagination: {
    starting: records.length ? 1 : 0,
    ending: records.length,
    count: records.length,
    previous: null,
    next: null,
  },
});

/** A gateway that keeps its keys, creates one with SECRET and revokes like the real one. */
function gateway(start: ApiKey[] = []) {
  let keys = [...start];
  return fakeGateway({
    'GET /v1/api-keys': () => json(page(keys)),
    'GET /v1/api-keys/events': () => json({ ...page([]), records: [] }),
    'POST /v1/api-keys': (call) => {
      const body = bodyOf(call);
      if (body.name === 'taken') return json({ message: 'Invalid input', errors: { scope: ['Not yours.'] } }, 400);
      const created: CreatedApiKey = {
        ...makeKey(`k${keys.length + 1}`, String(body.name), { scope: body.scope as ApiKey['scope'] }),
        secret: SECRET,
      };
      const { secret: _secret, ...listed } = created;
      keys = [listed, ...keys];
      return json(created, 201);
    },
    'DELETE /v1/api-keys/:id': (_call, { id }) => {
      keys = keys.map((k) =>
        k._id === id ? { ...k, status: 'revoked' as const, revoked_at: '2026-11-02T00:00:00Z' } : k,
      );
      return json(keys.find((k) => k._id === id));
    },
  });
}

const initialState: ConsoleState = consoleStore.getState();
beforeEach(() => {
  const owner: ConsoleUser = { ...makeUser([...TENANT_PERMISSIONS]), features: [...PLAN_FEATURES.growup] };
  signInAs(consoleStore, owner);
  jest.spyOn(notify, 'success').mockReturnValue('t');
  jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
});

const render = () => renderPage(<ApiAccessPage />, '/account/api-access');

describe('API Access', () => {
  it('shows the empty state with a create button, and the tabs', async () => {
    gateway();
    render();
    expect(await screen.findByText(EMPTY_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create your first key' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'API access' });
    expect(within(tabs).getByRole('link', { name: 'Keys' })).toHaveAttribute('href', '/account/api-access');
    expect(within(tabs).getByRole('link', { name: 'Webhooks' })).toHaveAttribute(
      'href',
      '/account/api-access/webhooks',
    );
  });

  it('the create dialog: labelled fields, focus on the name, Escape closes, focus back on Create key', async () => {
    gateway();
    const user = userEvent.setup();
    render();
    await screen.findByText(EMPTY_TEXT);
    const opener = screen.getByRole('button', { name: 'Create key' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(name).toHaveFocus());
    expect(within(dialog).getByRole('group', { name: 'Scope' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Full access' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Sending only' })).toHaveAccessibleDescription(
      'Sends transactional e-mails and reads their status.',
    );
    expect(within(dialog).getByRole('radio', { name: 'Contacts' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Expires (optional)')).toHaveAttribute('type', 'date');

    // Without a name: the field's error, focus stays on it, nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText('Enter a name for the key.')).toBeInTheDocument();
    expect(name).toHaveFocus();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('shows the secret once; after its dialog closes no element holds it, and reopening does not show it', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    render();
    await screen.findByText(EMPTY_TEXT);
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(dialog).getByLabelText('Name'), 'Shop back end');
    await user.click(within(dialog).getByRole('radio', { name: 'Contacts' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    const field = within(secretDialog).getByLabelText('Secret of Shop back end');
    expect(field).toHaveValue(SECRET);
    expect(field).toHaveAttribute('readonly');
    expect(within(secretDialog).getByText(SECRET_WARNING)).toBeInTheDocument();
    expect(within(secretDialog).getByRole('button', { name: 'Copy Secret of Shop back end' })).toBeInTheDocument();
    const [sent] = calls.to('POST', '/v1/api-keys');
    expect(sent && bodyOf(sent)).toEqual({ name: 'Shop back end', scope: 'contacts', expires_at: null });

    await user.click(within(secretDialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The grid lists the key by its prefix; the secret is in no element, text or attribute.
    expect(await screen.findByText('Shop back end')).toBeInTheDocument();
    const holdsSecret = () =>
      document.documentElement.outerHTML.includes(SECRET.slice(16)) ||
      [...document.querySelectorAll('input, textarea')].some((el) =>
        (el as HTMLInputElement).value.includes(SECRET.slice(16)),
      );
    expect(holdsSecret()).toBe(false);

    // Opening Create key again shows an empty form, never the old secret.
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const again = await screen.findByRole('dialog', { name: 'Create API key' });
    expect(within(again).getByLabelText('Name')).toHaveValue('');
    expect(holdsSecret()).toBe(false);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(holdsSecret()).toBe(false);
  });

  it('shows a server field error under the scope', async () => {
    gateway();
    const user = userEvent.setup();
    render();
    await screen.findByText(EMPTY_TEXT);
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(dialog).getByLabelText('Name'), 'taken');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText('Not yours.')).toBeInTheDocument();
  });

  it('revokes a key after confirming', async () => {
    const calls = gateway([
      makeKey('k9', 'CRM sync', { last_used_at: '2026-11-20T10:00:00Z', last_used_ip: '203.0.113.7' }),
    ]);
    const user = userEvent.setup();
    render();
    expect(await screen.findByText('CRM sync')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.7')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke CRM sync' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke CRM sync?' });
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.to('DELETE', '/v1/api-keys/k9')).toHaveLength(1));
    expect(await screen.findByText('Revoked')).toBeInTheDocument();
  });
});
