import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { splitFormErrors, type SplitFormErrors } from '@console/shared/api';
import {
  API_KEY_EXPIRY_PAST,
  API_KEY_NAME_MAX,
  API_KEY_NAME_REQUIRED,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@console/shared/contracts';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { TextField } from '@console/shared/ui';
import { createKey, invalidateKeys } from './api';
import { expiryInstant, today } from './expiry';
import { SCOPE_CHOICES } from './key-texts';

type Field = 'name' | 'scope' | 'expires_at';
const NO_ERRORS: SplitFormErrors<Field> = { fields: {}, message: null };
const CONTROL = 'h-4 w-4 border-slate-300 text-brand-700 focus-visible:ring-2 focus-visible:ring-brand-600';

/**
 * Create key: a name, a scope (a sentence each) and an optional expiry day. On success the parent gets
 * the created key, secret included, and shows it once ({@link SecretDialog}). Mount with a key per opening.
 */
export function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const client = useQueryClient();
  const id = useId();
  const formId = `${id}-form`;
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('full');
  const [expiry, setExpiry] = useState('');
  const [errors, setErrors] = useState(NO_ERRORS);
  const [sending, setSending] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const expiresAt = expiry ? expiryInstant(expiry) : null;
    const own: SplitFormErrors<Field>['fields'] = {
      ...(name.trim() ? {} : { name: API_KEY_NAME_REQUIRED }),
      ...(expiry && (!expiresAt || Date.parse(expiresAt) <= Date.now()) ? { expires_at: API_KEY_EXPIRY_PAST } : {}),
    };
    if (Object.keys(own).length > 0) {
      setErrors({ fields: own, message: null });
      if (own.name) nameRef.current?.focus();
      return;
    }
    setSending(true);
    setErrors(NO_ERRORS);
    try {
      const created = await createKey({ name: name.trim(), scope, expires_at: expiresAt });
      await invalidateKeys(client);
      onCreated(created);
    } catch (failure) {
      const next = splitFormErrors(failure, ['name', 'scope', 'expires_at'], 'The key could not be created.');
      setErrors(next);
      if (next.fields.name) nameRef.current?.focus();
    } finally {
      setSending(false);
    }
  };

  const scopeErrorId = `${id}-scope-error`;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create API key"
      dismissible={!sending}
      size="lg"
      initialFocus={nameRef}
      testId="create-key-dialog"
      footer={<FormFooter formId={formId} busy={sending} submitLabel="Create key" onCancel={onClose} />}
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void send(event)}>
        <TextField
          ref={nameRef}
          label="Name"
          autoComplete="off"
          maxLength={API_KEY_NAME_MAX}
          placeholder="e.g. Shop back end"
          value={name}
          error={errors.fields.name}
          readOnly={sending}
          onChange={(event) => {
            setName(event.target.value);
            if (errors.fields.name) setErrors((e) => ({ ...e, fields: { ...e.fields, name: undefined } }));
          }}
        />
        <fieldset aria-describedby={errors.fields.scope ? scopeErrorId : undefined} disabled={sending}>
          <legend className="text-sm font-medium text-slate-800">Scope</legend>
          <div className="mt-2 space-y-2">
            {SCOPE_CHOICES.map((choice) => {
              const inputId = `${id}-${choice.scope}`;
              return (
                <div key={choice.scope} className="flex items-start gap-3">
                  <input
                    id={inputId}
                    type="radio"
                    name={`${id}-scope`}
                    value={choice.scope}
                    checked={scope === choice.scope}
                    aria-describedby={`${inputId}-description`}
                    onChange={() => setScope(choice.scope)}
                    className={`${CONTROL} mt-0.5 rounded-full`}
                  />
                  <div className="text-sm">
                    <label htmlFor={inputId} className="font-medium text-slate-900">
                      {choice.label}
                    </label>
                    <p id={`${inputId}-description`} className="text-slate-500">
                      {choice.description}
                    </p>
                  </div>
                </div>
              );
            })}
          </div>
          {errors.fields.scope && (
            <p id={scopeErrorId} className="mt-2 text-xs text-red-700">
              {errors.fields.scope}
            </p>
          )}
        </fieldset>
        <TextField
          label="Expires (optional)"
          type="date"
          min={today()}
          value={expiry}
          error={errors.fields.expires_at}
          readOnly={sending}
          hint="The key stops working at the end of this day. Leave empty for a key that does not expire."
          onChange={(event) => {
            setExpiry(event.target.value);
            if (errors.fields.expires_at) setErrors((e) => ({ ...e, fields: { ...e.fields, expires_at: undefined } }));
          }}
        />
        {errors.message && (
          <p role="alert" className="text-sm text-red-700">
            {errors.message}
          </p>
        )}
      </form>
    </Dialog>
  );
}
