import '../styles.css';
import { PageHeader } from '@console/shared/layout';
import { useConsole } from '@console/shared/session';
import { ChangePasswordForm } from '../features/password/change-password-form';

/**
 * Change password (account/change-password). While impersonating there is no form: the gateway refuses
 * the change (403), and the password is the person's own.
 */
export default function ChangePasswordPage() {
  const user = useConsole((s) => s.user);
  if (!user) return null;
  return (
    <section>
      <PageHeader
        title="Change password"
        description="Choose a new password. Every other place where you are signed in is signed out."
      />
      {user.is_impersonating ? (
        <p className="max-w-md rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
          You are acting as this user; they change their own password.
        </p>
      ) : (
        <ChangePasswordForm user={user} />
      )}
    </section>
  );
}
