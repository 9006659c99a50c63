import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { WebhookEndpoint } from '@console/shared/contracts';
import { Button, notify } from '@console/shared/ui';
import { invalidateWebhooks, sendTestEvent, updateEndpoint } from './api';
import { AttemptsLog } from './attempts-log';
import { EVENT_LABELS } from './labels';
import { SecretSection } from './secret-section';

/** The toast of a test event: what the endpoint answered, or why nothing was. */
export function testEventMessage(attempt: {
  status_code: number | null;
  response_ms: number | null;
  error: string | null;
}) {
  const time = attempt.response_ms === null ? '' : ` in ${attempt.response_ms} ms`;
  if (attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300) {
    return { ok: true, text: `Test event delivered: the endpoint answered ${attempt.status_code}${time}.` };
  }
  return { ok: false, text: `Test event failed: ${attempt.error ?? `the endpoint answered ${attempt.status_code}`}` };
}

/** One endpoint: its settings, Send test event, enable/disable, the secret and the attempts log. */
export function EndpointDetail({
  endpoint,
  onBack,
  onEdit,
  onDelete,
}: {
  endpoint: WebhookEndpoint;
  onBack: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const client = useQueryClient();
  const [testing, setTesting] = useState(false);
  const [switching, setSwitching] = useState(false);

  const test = async () => {
    setTesting(true);
    try {
      const { attempt } = await sendTestEvent(endpoint._id);
      const result = testEventMessage(attempt);
      if (result.ok) notify.success(result.text);
      else notify.error(result.text);
      await invalidateWebhooks(client);
    } catch (error) {
      notify.error(messageOf(error, 'The test event could not be sent.'));
    } finally {
      setTesting(false);
    }
  };

  const toggle = async () => {
    setSwitching(true);
    try {
      await updateEndpoint(endpoint._id, { enabled: !endpoint.enabled });
      await invalidateWebhooks(client);
      notify.success(endpoint.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.');
    } catch (error) {
      notify.error(messageOf(error, 'The endpoint could not be changed.'));
    } finally {
      setSwitching(false);
    }
  };

  return (
    <section aria-labelledby={`endpoint-${endpoint._id}`} className="rounded-panel border border-slate-200 p-4">
      <Button variant="link" onClick={onBack}>
        All endpoints
      </Button>
      <h2 id={`endpoint-${endpoint._id}`} className="mt-2 font-mono text-lg break-all text-slate-900">
        {endpoint.url}
      </h2>
      {endpoint.description && <p className="mt-1 text-slate-600">{endpoint.description}</p>}
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium text-slate-700">Events</dt>
        <dd className="text-slate-900">{endpoint.events.map((t) => EVENT_LABELS[t].label).join(', ')}</dd>
        <dt className="font-medium text-slate-700">Status</dt>
        <dd className="text-slate-900">
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
          {endpoint.disabled_reason && <span className="block text-amber-800">{endpoint.disabled_reason}</span>}
        </dd>
      </dl>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button disabled={testing} onClick={() => void test()}>
          Send test event
        </Button>
        <Button variant="secondary" onClick={onEdit}>
          Edit
        </Button>
        <Button variant="secondary" disabled={switching} onClick={() => void toggle()}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="danger" onClick={onDelete}>
          Delete
        </Button>
      </div>
      <SecretSection endpointId={endpoint._id} />
      <AttemptsLog endpointId={endpoint._id} />
    </section>
  );
}
