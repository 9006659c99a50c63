import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { ResetPasswordPage } from '../src/pages/reset-password';

let calls: { path: string; body: unknown }[] = [];
let reply: { status: number; body: unknown };

beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
beforeEach(() => {
  calls = [];
  reply = { status: 200, body: { message: 'Your password has been changed.' } };
  globalThis.fetch = (async (input: Request) => {
    const text = await input.text();
    calls.push({ path: new URL(input.url).pathname, body: JSON.parse(text) as unknown });
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
});

const renderReset = () =>
  render(
    <MemoryRouter initialEntries={['/reset/u1/tok']}>
      <Routes>
        <Route path="/reset/:user_id/:reset_token" element={<ResetPasswordPage />} />
      </Routes>
    </MemoryRouter>,
  );

test('the new password fields: the rule under the first, a mismatch caught before sending', async () => {
  const user = userEvent.setup({ delay: null });
  renderReset();
  expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('Use at least 10 characters.');
  await user.type(screen.getByLabelText('New password'), 'long-enough-1');
  await user.type(screen.getByLabelText('Repeat the new password'), 'long-enough-2');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  expect(screen.getByLabelText('Repeat the new password')).toHaveAccessibleDescription('The passwords do not match.');
  expect(calls).toEqual([]);
});

test('sends the link and the password; a server error on the password replaces the rule under it', async () => {
  reply = { status: 400, body: { message: 'Invalid input', errors: { password: ['Use at least 10 characters.'] } } };
  const user = userEvent.setup({ delay: null });
  renderReset();
  await user.type(screen.getByLabelText('New password'), 'short');
  await user.type(screen.getByLabelText('Repeat the new password'), 'short');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true'));
  expect(screen.getAllByText('Use at least 10 characters.')).toHaveLength(1);
  expect(calls).toEqual([{ path: '/v1/auth/reset', body: { user_id: 'u1', reset_token: 'tok', password: 'short' } }]);
});

test('the strength meter (loaded with the page) says why a weak password is refused', async () => {
  const user = userEvent.setup({ delay: null });
  renderReset();
  await user.type(screen.getByLabelText('New password'), 'aaaaaaaaaa');
  expect(await screen.findByRole('meter', { name: 'Password strength' })).toHaveAttribute(
    'aria-valuetext',
    'Very weak',
  );
  expect(screen.getByText('Repeated characters like "aaa" are easy to guess.')).toBeInTheDocument();
  await user.clear(screen.getByLabelText('New password'));
  await user.type(screen.getByLabelText('New password'), 'correct horse battery staple');
  await waitFor(() => expect(screen.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Strong'));
  expect(screen.queryByText(/easy to guess/)).not.toBeInTheDocument();
});
