import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@console/shared/router';
import { setRuntimeConfig, DEFAULT_CONFIG } from '@console/shared/config';
import { consoleStore, navigation } from '@console/shared/session';
import { LoginPage } from '../src/pages/login';

let respond: () => Promise<Response>;
beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
beforeEach(() => {
  consoleStore.setState({ user: null, token: null, busy: false, error: false, email: '', password: '' });
  navigation.assign = jest.fn();
  globalThis.fetch = (async (input: Request) => {
    await input.text();
    return respond();
  }) as typeof fetch;
});

const renderLogin = () =>
  render(
    <MemoryRouter>
      <LoginPage />
    </MemoryRouter>,
  );

test('labelled fields bound to the store, empty by default', async () => {
  renderLogin();
  const email = screen.getByLabelText('Email');
  expect(email).toHaveValue('');
  await userEvent.type(email, 'a@b.test');
  await userEvent.type(screen.getByLabelText('Password'), 'pw');
  expect(consoleStore.getState()).toMatchObject({ email: 'a@b.test', password: 'pw' });
});

test('busy: spinner and disabled submit while the request runs', async () => {
  let release: (r: Response) => void = () => {};
  respond = () => new Promise((r) => (release = r));
  renderLogin();
  await userEvent.type(screen.getByLabelText('Email'), 'a@b.test');
  await userEvent.type(screen.getByLabelText('Password'), 'pw');
  await userEvent.click(screen.getByRole('button', { name: /Sign in/ }));
  const button = screen.getByRole('button', { name: /Sign in/ });
  expect(button).toBeDisabled();
  expect(button).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  release(
    new Response(JSON.stringify({ message: 'Nope' }), { status: 401, headers: { 'content-type': 'application/json' } }),
  );
  expect(await screen.findByRole('alert')).toHaveTextContent('Nope');
  expect(screen.getByRole('button', { name: /Sign in/ })).toBeEnabled();
});

test('error text: the fallback when the server sends no message', async () => {
  respond = async () => new Response('', { status: 502 });
  renderLogin();
  await userEvent.type(screen.getByLabelText('Email'), 'a@b.test');
  await userEvent.type(screen.getByLabelText('Password'), 'pw');
  await userEvent.click(screen.getByRole('button', { name: /Sign in/ }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials, please try again.');
});

test('a server message is shown as text, never as HTML', async () => {
  respond = async () =>
    new Response(JSON.stringify({ message: '<img src=x onerror="window.__pwned=1">' }), {
      status: 401,
      headers: { 'content-type': 'application/json' },
    });
  renderLogin();
  await userEvent.type(screen.getByLabelText('Email'), 'a@b.test');
  await userEvent.type(screen.getByLabelText('Password'), 'pw');
  await userEvent.click(screen.getByRole('button', { name: /Sign in/ }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('<img src=x onerror="window.__pwned=1">');
  expect(alert.querySelector('img')).toBeNull();
});

test('an account under attack: the answer that a sign-in link was e-mailed is shown, no session starts', async () => {
  const message =
    'There have been too many failed sign-in attempts on this account. If the e-mail address and password are ' +
    'correct, we have sent a sign-in link to that address. It expires in 15 minutes.';
  respond = async () =>
    new Response(JSON.stringify({ message }), { status: 202, headers: { 'content-type': 'application/json' } });
  renderLogin();
  await userEvent.type(screen.getByLabelText('Email'), 'a@b.test');
  await userEvent.type(screen.getByLabelText('Password'), 'pw');
  await userEvent.click(screen.getByRole('button', { name: /Sign in/ }));
  expect(await screen.findByRole('alert')).toHaveTextContent(message);
  expect(screen.getByRole('button', { name: /Sign in/ })).toBeEnabled();
  expect(consoleStore.getState().token).toBeNull();
  expect(navigation.assign).not.toHaveBeenCalled();
});
