import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from '@console/shared/router';
import { ApiError } from '@console/shared/api';
import { Button, TextField } from '@console/shared/ui';
import { CHECKOUT_CHECK_MAIL, CheckoutBody } from '@console/shared/contracts';
import { LazyStrengthMeter } from '../components/lazy-strength-meter';
import { rememberCheckout, startCheckout } from './api';

type Field = 'tenant_name' | 'first_name' | 'last_name' | 'email' | 'password' | 'accept_terms';
type Values = Record<Exclude<Field, 'accept_terms'>, string> & { accept_terms: boolean };
type Errors = Partial<Record<Field, string>>;

/** Request state: idle, sending, sent (the next step is in the customer's mailbox), or failed. */
type Submission =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'sent'; email: string }
  | { kind: 'failed'; message: string | null; errors: Errors };

export const ACCEPT_TERMS_ERROR = 'Accept the terms to continue.';
export const CHECKOUT_FAILED = 'We could not start the checkout. Please try again.';
/** The gateway's rule for new passwords (NewPassword in the shared contracts). */
export const PASSWORD_HINT = 'At least 10 characters.';

const FIELD_ORDER: Field[] = ['tenant_name', 'first_name', 'last_name', 'email', 'password', 'accept_terms'];
const EMPTY: Values = {
  tenant_name: '',
  first_name: '',
  last_name: '',
  email: '',
  password: '',
  accept_terms: false,
};

function isField(key: string): key is Field {
  return (FIELD_ORDER as string[]).includes(key);
}

/** The first message per field of the shared contract's checks (the gateway's own messages). */
function validate(priceId: string, values: Values): Errors {
  const errors: Errors = {};
  const { accept_terms, ...body } = values;
  const parsed = CheckoutBody.safeParse({ price_id: priceId, ...body });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (isField(key) && !errors[key]) errors[key] = issue.message;
    }
  }
  if (!accept_terms) errors.accept_terms = ACCEPT_TERMS_ERROR;
  return errors;
}

/** Server errors ({message, errors}) per field; the message shows when no field explains it. */
function serverFailure(error: unknown): Submission {
  if (!(error instanceof ApiError)) return { kind: 'failed', message: CHECKOUT_FAILED, errors: {} };
  const errors: Errors = {};
  let unplaced: string | null = null;
  for (const [key, message] of Object.entries(error.fieldErrors())) {
    if (isField(key)) errors[key] = message;
    else unplaced ??= message;
  }
  const placed = Object.keys(errors).length > 0;
  return { kind: 'failed', message: placed ? unplaced : unplaced || error.body.message || CHECKOUT_FAILED, errors };
}

/**
 * After the order is stored: the same words whether or not the address already has an account (the
 * gateway answers the same either way); the e-mail carries the payment link, or a note that an account
 * exists with sign-in and reset links.
 */
function CheckYourMail({ email }: { email: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="check-your-mail">
      <h2
        id="check-your-mail"
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 focus:outline-none"
      >
        Check your e-mail
      </h2>
      <p role="status" className="mt-2 text-sm text-slate-700">
        {CHECKOUT_CHECK_MAIL(email)}
      </p>
      <p className="mt-4 text-sm text-slate-600">
        Already have an account?{' '}
        <Link className="text-brand-700 underline" to="/login">
          Sign in
        </Link>
      </p>
    </section>
  );
}

/**
 * The start-checkout form: community, name, work e-mail, password, terms; 'Continue to payment' stores
 * the order and says to check the e-mail.
 */
export function CheckoutForm({ priceId }: { priceId: string }) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [submission, setSubmission] = useState<Submission>({ kind: 'idle' });
  const formRef = useRef<HTMLFormElement>(null);
  const termsId = useId();
  const termsErrorId = `${termsId}-error`;
  const errors = submission.kind === 'failed' ? submission.errors : {};

  // After a failed submit, focus the first field with an error (or the form's message).
  useEffect(() => {
    if (submission.kind !== 'failed') return;
    const first = FIELD_ORDER.find((f) => submission.errors[f]);
    const target = first ? formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`) : null;
    (target ?? formRef.current?.querySelector<HTMLElement>('[data-checkout-message]'))?.focus();
  }, [submission]);

  const set = (field: Exclude<Field, 'accept_terms'>) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submission.kind === 'busy') return;
    const found = validate(priceId, values);
    if (Object.keys(found).length > 0) {
      setSubmission({ kind: 'failed', message: null, errors: found });
      return;
    }
    setSubmission({ kind: 'busy' });
    try {
      const started = await startCheckout({
        price_id: priceId,
        tenant_name: values.tenant_name,
        first_name: values.first_name,
        last_name: values.last_name,
        email: values.email,
        password: values.password,
      });
      rememberCheckout(started.session_id, started.secret);
      setSubmission({ kind: 'sent', email: values.email.trim() });
    } catch (error) {
      setSubmission(serverFailure(error));
    }
  }

  if (submission.kind === 'sent') return <CheckYourMail email={submission.email} />;
  const message = submission.kind === 'failed' ? submission.message : null;
  return (
    <form ref={formRef} noValidate className="space-y-4" aria-label="Your account" onSubmit={(e) => void submit(e)}>
      <TextField
        label="Community name"
        name="tenant_name"
        autoComplete="organization"
        required
        value={values.tenant_name}
        onChange={set('tenant_name')}
        error={errors.tenant_name}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          name="first_name"
          autoComplete="given-name"
          required
          value={values.first_name}
          onChange={set('first_name')}
          error={errors.first_name}
        />
        <TextField
          label="Last name"
          name="last_name"
          autoComplete="family-name"
          required
          value={values.last_name}
          onChange={set('last_name')}
          error={errors.last_name}
        />
      </div>
      <TextField
        label="Work e-mail"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={values.email}
        onChange={set('email')}
        error={errors.email}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        maxLength={200}
        hint={PASSWORD_HINT}
        value={values.password}
        onChange={set('password')}
        error={errors.password}
      />
      <LazyStrengthMeter
        password={values.password}
        userInputs={[values.email, values.tenant_name, values.first_name, values.last_name]}
      />
      <div>
        <div className="flex items-start gap-2">
          <input
            id={termsId}
            name="accept_terms"
            type="checkbox"
            required
            checked={values.accept_terms}
            onChange={(e) => setValues((v) => ({ ...v, accept_terms: e.target.checked }))}
            aria-invalid={errors.accept_terms ? true : undefined}
            aria-describedby={errors.accept_terms ? termsErrorId : undefined}
            className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
          />
          <label htmlFor={termsId} className="text-sm text-slate-700">
            I accept the terms of service and the privacy policy.
          </label>
        </div>
        {errors.accept_terms && (
          <p id={termsErrorId} className="mt-1 text-xs text-red-700">
            {errors.accept_terms}
          </p>
        )}
      </div>
      {message && (
        <p role="alert" tabIndex={-1} data-checkout-message className="text-sm text-red-700">
          {message}
        </p>
      )}
      <Button type="submit" busy={submission.kind === 'busy'} className="w-full">
        Continue to payment
      </Button>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link className="text-brand-700 underline" to="/login">
          Sign in
        </Link>
      </p>
    </form>
  );
}
