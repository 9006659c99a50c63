import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { splitFormErrors } from '@console/shared/api';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type WebhookEndpoint } from '@console/shared/contracts';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { TextArea, TextField, notify } from '@console/shared/ui';
import { createEndpoint, invalidateWebhooks, updateEndpoint } from './api';
import { endpointFormErrors, orderedEvents, type EndpointFormErrors, type EndpointFormValues } from './endpoint-form';
import { EVENT_LABELS } from './labels';

const CHECKBOX =
  'mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * Add or edit an endpoint: its https address, the events it receives (checkboxes in a fieldset) and a
 * description. Field errors (the form's own, then the gateway's) show under their field and move focus
 * there. Mount with a key per opening.
 */
export function EndpointDialog({
  endpoint,
  open,
  onClose,
  onSaved,
}: {
  /** The endpoint to edit; none to add one. */
  endpoint?: WebhookEndpoint;
  open: boolean;
  onClose: () => void;
  onSaved: (endpoint: WebhookEndpoint) => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const eventsErrorId = useId();
  const urlRef = useRef<HTMLInputElement>(null);
  const firstEventRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<EndpointFormValues>({
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    events: endpoint?.events ?? ['delivered', 'bounced', 'complained'],
  });
  const [errors, setErrors] = useState<EndpointFormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const focusFirst = (found: EndpointFormErrors) => {
    if (found.url) urlRef.current?.focus();
    else if (found.events) firstEventRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found = endpointFormErrors(values);
    setErrors(found);
    setMessage(null);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    setSaving(true);
    const body = { url: values.url.trim(), description: values.description.trim(), events: values.events };
    try {
      const saved = endpoint ? await updateEndpoint(endpoint._id, body) : await createEndpoint(body);
      await invalidateWebhooks(client);
      notify.success(endpoint ? 'Endpoint saved.' : 'Endpoint added.');
      onSaved(saved);
    } catch (failure) {
      const split = splitFormErrors(
        failure,
        ['url', 'events', 'description'],
        endpoint ? 'The endpoint could not be saved.' : 'The endpoint could not be added.',
      );
      setErrors(split.fields);
      setMessage(split.message);
      focusFirst(split.fields);
    } finally {
      setSaving(false);
    }
  };

  const toggle = (type: (typeof WEBHOOK_EVENT_TYPES)[number], on: boolean) => {
    setValues((v) => ({
      ...v,
      events: orderedEvents(on ? [...v.events, type] : v.events.filter((t) => t !== type)),
    }));
    if (errors.events) setErrors((e) => ({ ...e, events: undefined }));
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      dismissible={!saving}
      initialFocus={urlRef}
      size="lg"
      testId="webhook-endpoint-dialog"
      footer={
        <FormFooter formId={formId} busy={saving} submitLabel={endpoint ? 'Save' : 'Add endpoint'} onCancel={onClose} />
      }
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
        <TextField
          ref={urlRef}
          label="Endpoint URL"
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks/console"
          maxLength={WEBHOOK_LIMITS.url}
          value={values.url}
          error={errors.url}
          readOnly={saving}
          onChange={(event) => {
            const url = event.target.value;
            setValues((v) => ({ ...v, url }));
            if (errors.url) setErrors((e) => ({ ...e, url: undefined }));
          }}
        />
        <fieldset aria-describedby={errors.events ? eventsErrorId : undefined} disabled={saving}>
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((type, index) => {
              const inputId = `${formId}-event-${type}`;
              return (
                <div key={type} className="flex items-start gap-2">
                  <input
                    id={inputId}
                    ref={index === 0 ? firstEventRef : undefined}
                    type="checkbox"
                    checked={values.events.includes(type)}
                    aria-invalid={errors.events ? true : undefined}
                    onChange={(event) => toggle(type, event.target.checked)}
                    className={CHECKBOX}
                  />
                  <label htmlFor={inputId} className="text-sm text-slate-800">
                    {EVENT_LABELS[type].label} <span className="text-slate-500">({EVENT_LABELS[type].hint})</span>
                  </label>
                </div>
              );
            })}
          </div>
          {errors.events && (
            <p id={eventsErrorId} className="mt-2 text-xs text-red-700">
              {errors.events}
            </p>
          )}
        </fieldset>
        <TextArea
          label="Description"
          rows={2}
          maxLength={WEBHOOK_LIMITS.description}
          value={values.description}
          error={errors.description}
          readOnly={saving}
          onChange={(event) => {
            const description = event.target.value;
            setValues((v) => ({ ...v, description }));
          }}
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
