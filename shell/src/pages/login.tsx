import { Link } from '@console/shared/router';
import { INVALID_CREDENTIALS, consoleStore, signIn, useConsole } from '@console/shared/session';
import { Button, TextField } from '@console/shared/ui';
import { AuthCard } from './auth-card';

/** Login screen of spec section 2: email, password, busy submit with spinner, error text. */
export function LoginPage() {
  const email = useConsole((s) => s.email);
  const password = useConsole((s) => s.password);
  const busy = useConsole((s) => s.busy);
  const error = useConsole((s) => s.error);
  const { setField } = consoleStore.getState();
  const message = error === false ? null : typeof error === 'string' ? error : INVALID_CREDENTIALS;

  return (
    <AuthCard title="Sign in">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void signIn();
        }}
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          value={email}
          onChange={(e) => setField('email', e.target.value)}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={200}
          value={password}
          onChange={(e) => setField('password', e.target.value)}
        />
        {message && (
          <p role="alert" className="text-sm text-red-700" data-testid="login-error">
            {message}
          </p>
        )}
        <Button type="submit" busy={busy} className="w-full">
          Sign in
        </Button>
        <p className="text-center text-sm">
          <Link className="text-brand-700 underline" to="/reset">
            Forgot your password?
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
