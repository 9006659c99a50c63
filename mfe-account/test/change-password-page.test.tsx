import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { consoleStore, type ConsoleState } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import ChangePasswordPage from '../src/pages/change-password-page';
import { fakeGateway, json, makeUser, renderPage } from './account-kit';
import { signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

const CHANGED = 'Your password has been changed. Other sessions have been signed out.';
const NEW = 'kT9#vQ2!xLm8@pZ';

const initialState: ConsoleState = consoleStore.getState();
let success: jest.SpyInstance;

beforeEach(() => {
  signInAs(consoleStore, makeUser(), 'old-token');
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
});

const field = (name: string) => screen.getByLabelText(name);
/** A cookie's value (js-cookie is the shell's and shared's dependency, not this remote's). */
const cookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

async function fill(user: ReturnType<typeof userEvent.setup>, current: string, next: string, repeat = next) {
  if (current) await user.type(field('Current password'), current);
  if (next) await user.type(field('New password'), next);
  if (repeat) await user.type(field('Repeat the new password'), repeat);
}

function renderChangePassword() {
  return renderPage(<ChangePasswordPage />, '/account/change-password');
}

describe('Change password', () => {
  it('labelled fields, the rule under the new password, no request for a form that breaks it', async () => {
    const gw = fakeGateway({});
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    expect(screen.getByRole('heading', { level: 1, name: 'Change password' })).toBeInTheDocument();
    expect(field('New password')).toHaveAccessibleDescription('Use at least 10 characters.');
    expect(field('Current password')).toHaveAttribute('autocomplete', 'current-password');

    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(field('Current password')).toHaveAccessibleDescription('Enter your current password.');
    expect(field('Current password')).toHaveFocus();

    await fill(user, 'old-secret', 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(field('Current password')).not.toHaveAttribute('aria-invalid');
    expect(field('New password')).toHaveAccessibleDescription('Use at least 10 characters.');
    expect(screen.getAllByText('Use at least 10 characters.')).toHaveLength(1);
    expect(field('New password')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field('New password'));
    await user.type(field('New password'), NEW);
    await user.clear(field('Repeat the new password'));
    await user.type(field('Repeat the new password'), `${NEW}x`);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(field('Repeat the new password')).toHaveAccessibleDescription('The passwords do not match.');
    expect(gw.calls).toEqual([]);
  });

  it('posts both passwords, replaces the session token, toasts and empties the form', async () => {
    const gw = fakeGateway({ 'POST /v1/auth/change-password': () => json({ token: 'new-token' }) });
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    await fill(user, 'old-secret-1', NEW);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(CHANGED));
    const [call] = gw.to('POST', '/v1/auth/change-password');
    expect(call?.body).toEqual({ current_password: 'old-secret-1', new_password: NEW });
    expect(call?.headers.get('authorization')).toBe('Bearer old-token');
    expect(cookie('token')).toBe('new-token');
    expect(consoleStore.getState().token).toBe('new-token');
    expect(field('Current password')).toHaveValue('');
    expect(field('New password')).toHaveValue('');
    expect(field('Repeat the new password')).toHaveValue('');
  });

  it('shows a wrong current password under its field', async () => {
    fakeGateway({
      'POST /v1/auth/change-password': () =>
        json({ message: 'Invalid input', errors: { current_password: ['Your current password is not right.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    await fill(user, 'wrong-one', NEW);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(field('Current password')).toHaveAccessibleDescription('Your current password is not right.'),
    );
    expect(field('Current password')).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(cookie('token')).toBe('old-token');
    expect(success).not.toHaveBeenCalled();
  });

  it('shows throttling (429) as an alert', async () => {
    fakeGateway({
      'POST /v1/auth/change-password': () => json({ message: 'Too many attempts. Try again in 15 minutes.' }, 429),
    });
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    await fill(user, 'old-secret-1', NEW);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 15 minutes.');
    expect(screen.getByRole('button', { name: 'Change password' })).toBeEnabled();
  });

  it('rates the new password with a strength meter', async () => {
    fakeGateway({});
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    expect(screen.queryByRole('meter')).not.toBeInTheDocument();
    await user.type(field('New password'), 'password123');
    const meter = await screen.findByRole('meter', { name: 'Password strength' });
    expect(meter).toHaveAttribute('aria-valuetext', 'Very weak');
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    await user.clear(field('New password'));
    // The user's own e-mail is a guessable part.
    await user.type(field('New password'), 'owner@acme.test1');
    await waitFor(() => expect(screen.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Weak'));
    await user.clear(field('New password'));
    await user.type(field('New password'), 'correct horse battery staple');
    await waitFor(() => expect(screen.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Strong'));
    expect(screen.getByText('Strength: Strong')).toBeInTheDocument();
    await user.clear(field('New password'));
    expect(screen.queryByRole('meter')).not.toBeInTheDocument();
  });

  it('says why a weak password is refused and does not send it (NIST SP 800-63B, the gateway rule)', async () => {
    const gw = fakeGateway({});
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    await fill(user, 'old-secret-1', 'aaaaaaaaaa');
    // The meter names the reason and the advice (zxcvbn's feedback).
    expect(await screen.findByText('Repeated characters like "aaa" are easy to guess.')).toBeInTheDocument();
    expect(screen.getByText('Avoid repeated words and characters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(field('New password')).toHaveAccessibleDescription(
      'Repeated characters like "aaa" are easy to guess. Add a few more words; uncommon words are better.',
    );
    expect(field('New password')).toHaveAttribute('aria-invalid', 'true');
    expect(field('New password')).toHaveFocus();
    expect(gw.calls).toEqual([]);
  });

  it("shows the gateway's reason for a refused password under the new password", async () => {
    const reason = 'This password is too easy to guess.';
    fakeGateway({
      'POST /v1/auth/change-password': () => json({ message: reason, errors: { new_password: [reason] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    renderChangePassword();
    await fill(user, 'old-secret-1', NEW);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(field('New password')).toHaveAccessibleDescription(reason));
  });

  it('while impersonating: a note instead of the form', () => {
    signInAs(consoleStore, { ...makeUser(), is_impersonating: true });
    renderChangePassword();
    expect(screen.getByText('You are acting as this user; they change their own password.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change password' })).not.toBeInTheDocument();
  });
});
