import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { splitFormErrors } from '@console/shared/api';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { TextField, notify } from '@console/shared/ui';
import { PROFILE_KEY, requestEmailChange } from './api';

type Field = 'email' | 'current_password';
type Errors = Partial<Record<Field, string>>;

/**
 * Change e-mail address (Your Profile): the new address and the current password. The gateway sends a
 * link to the new address; the sign-in address changes only when it is opened (our choice, as the best
 * consoles do, so a typo cannot lock the member out). Mount with a key per opening.
 */
export function ChangeEmailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const formId = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const fail = (next: Errors, alert: string | null) => {
    setErrors(next);
    setMessage(alert);
    (next.email || !next.current_password ? emailRef : passwordRef).current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const own: Errors = {};
    if (!email.trim()) own.email = 'Enter your new e-mail address.';
    if (!password) own.current_password = 'Enter your current password.';
    if (own.email || own.current_password) return fail(own, null);
    setSending(true);
    try {
      const profile = await requestEmailChange({ email: email.trim(), current_password: password });
      client.setQueryData(PROFILE_KEY, profile);
      notify.success(`We have sent a link to ${profile.pending_email ?? email.trim()}. Open it to confirm.`);
      onClose();
    } catch (failure) {
      const { fields, message } = splitFormErrors(
        failure,
        ['email', 'current_password'],
        'Your e-mail address could not be changed. Please try again.',
      );
      fail(fields, message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Change e-mail address"
      dismissible={!sending}
      initialFocus={emailRef}
      testId="change-email-dialog"
      footer={<FormFooter formId={formId} busy={sending} submitLabel="Send confirmation link" onCancel={onClose} />}
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
        <p className="text-slate-600">
          We send a link to the new address. You keep signing in with your current address until you open it.
        </p>
        <TextField
          ref={emailRef}
          label="New e-mail address"
          type="email"
          autoComplete="email"
          required
          value={email}
          error={errors.email}
          readOnly={sending}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          ref={passwordRef}
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          error={errors.current_password}
          readOnly={sending}
          onChange={(event) => setPassword(event.target.value)}
        />
        {message && (
          <p role="alert" className="text-sm text-red-700">
            {message}
          </p>
        )}
      </form>
    </Dialog>
  );
}
