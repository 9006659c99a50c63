import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { consoleStore, navigation } from '@console/shared/session';
import { SignInLinkPage } from '../src/pages/sign-in-link';

let calls: { path: string; body: unknown }[] = [];
let linkReply: { status: number; body: unknown };

beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
beforeEach(() => {
  calls = [];
  consoleStore.setState({ user: null, token: null, busy: false, error: false, email: '', password: '' });
  navigation.assign = jest.fn();
  globalThis.fetch = (async (input: Request) => {
    const text = await input.text();
    const path = new URL(input.url).pathname;
    calls.push({ path, body: text ? (JSON.parse(text) as unknown) : null });
    const reply = path === '/v1/auth/sign-in-link' ? linkReply : { status: 401, body: { message: 'no' } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
});

const renderPage = () =>
  render(
    <MemoryRouter initialEntries={['/sign-in/u1/secret-token']}>
      <Routes>
        <Route path="/sign-in/:user_id/:token" element={<SignInLinkPage />} />
      </Routes>
    </MemoryRouter>,
  );

test('uses the link only when asked, then starts the session as the login form does', async () => {
  linkReply = { status: 200, body: { token: 'session-token' } };
  renderPage();
  expect(calls).toEqual([]);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(calls[0]).toEqual({ path: '/v1/auth/sign-in-link', body: { user_id: 'u1', token: 'secret-token' } });
  // signInWithToken: the new token is verified (then the user is loaded and the console opens).
  await waitFor(() => expect(calls[1]).toEqual({ path: '/v1/auth/verify', body: { token: 'session-token' } }));
});

test("a used or expired link: the gateway's reason and a way back to the login", async () => {
  const reason = 'This sign-in link is invalid or has expired. Please sign in again.';
  linkReply = { status: 400, body: { message: reason, errors: { token: [reason] } } };
  renderPage();
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(reason);
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  expect(navigation.assign).not.toHaveBeenCalled();
});
