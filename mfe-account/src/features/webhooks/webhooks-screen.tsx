import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from '@console/shared/router';
import type { WebhookEndpoint } from '@console/shared/contracts';
import { formatDateTime } from '@console/shared/format';
import { PageHeader } from '@console/shared/layout';
import { useDialogSlot } from '@console/shared/overlays';
import { Button, Spinner } from '@console/shared/ui';
import { ApiAccessTabs } from '../api-access/api-access-tabs';
import { WEBHOOKS_KEY, fetchEndpoints } from './api';
import { DeleteEndpointDialog } from './delete-endpoint-dialog';
import { EndpointDetail } from './endpoint-detail';
import { EndpointDialog } from './endpoint-dialog';
import { EVENT_LABELS } from './labels';
import { VERIFY_RECIPE } from './verify-recipe';

type DialogRequest = { kind: 'add' } | { kind: 'edit' | 'delete'; endpoint: WebhookEndpoint };

function lastDelivery(e: WebhookEndpoint): string {
  if (!e.last_attempt_at) return 'Never';
  return `${formatDateTime(e.last_attempt_at)} (${e.last_attempt_ok ? 'succeeded' : 'failed'})`;
}

/**
 * Webhooks (account/api-access/webhooks, api_access): the community's endpoints (URL, events, status,
 * last delivery), Add endpoint, and one endpoint's detail (`?endpoint=<id>`, so a reload keeps it) with
 * its secret, the test event and the attempts log; how a receiver verifies a delivery.
 */
export function WebhooksScreen() {
  const endpoints = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: fetchEndpoints });
  const [params, setParams] = useSearchParams();
  const selected = params.get('endpoint');
  const setSelected = (id: string | null) => setParams(id ? { endpoint: id } : {});
  const { dialog, open, close } = useDialogSlot<DialogRequest>();
  const records = endpoints.data?.records ?? [];
  const current = records.find((e) => e._id === selected) ?? null;

  return (
    <section>
      <ApiAccessTabs />
      <PageHeader
        title="Webhooks"
        description="Your server hears about each e-mail as it happens: sent, delivered, opened, clicked, bounced, complained and unsubscribed."
        actions={<Button onClick={() => open({ kind: 'add' })}>Add endpoint</Button>}
      />
      {endpoints.isPending && <Spinner label="Loading endpoints" />}
      {endpoints.error && (
        <p role="alert" className="text-sm text-red-700">
          {endpoints.error.message}
        </p>
      )}
      {current ? (
        <EndpointDetail
          key={current._id}
          endpoint={current}
          onBack={() => setSelected(null)}
          onEdit={() => open({ kind: 'edit', endpoint: current })}
          onDelete={() => open({ kind: 'delete', endpoint: current })}
        />
      ) : (
        endpoints.data &&
        (records.length === 0 ? (
          <p className="text-slate-600">No endpoints yet. Add the address of your server that should receive events.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="Webhook endpoints">
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  {['URL', 'Events', 'Status', 'Last delivery', 'Actions'].map((h) => (
                    <th key={h} scope="col" className="py-2 pr-4 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {records.map((e) => (
                  <tr key={e._id} className="border-b border-slate-100 align-top">
                    <td className="py-2 pr-4">
                      <span className="font-mono break-all text-slate-900">{e.url}</span>
                      {e.description && <span className="block text-xs text-slate-500">{e.description}</span>}
                    </td>
                    <td className="py-2 pr-4 text-slate-700">
                      {e.events.map((t) => EVENT_LABELS[t].label).join(', ')}
                    </td>
                    <td className="py-2 pr-4 text-slate-700">{e.enabled ? 'Enabled' : 'Disabled'}</td>
                    <td className="py-2 pr-4 text-slate-700">{lastDelivery(e)}</td>
                    <td className="py-2">
                      <span className="inline-flex gap-3">
                        <Button variant="link" aria-label={`Details of ${e.url}`} onClick={() => setSelected(e._id)}>
                          Details
                        </Button>
                        <Button
                          variant="link"
                          className="text-red-700"
                          aria-label={`Delete ${e.url}`}
                          onClick={() => open({ kind: 'delete', endpoint: e })}
                        >
                          Delete
                        </Button>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))
      )}
      <section aria-labelledby="verify-recipe" className="mt-8">
        <h2 id="verify-recipe" className="mb-2 text-base font-semibold text-slate-900">
          Verifying deliveries
        </h2>
        <p className="mb-2 text-sm text-slate-600">
          Check each delivery before trusting it: the signature covers the webhook-id, the webhook-timestamp and the raw
          body, keyed by your endpoint&apos;s signing secret. In Node.js:
        </p>
        <pre
          tabIndex={0}
          aria-label="Node.js verification code"
          className="overflow-x-auto rounded-panel bg-slate-900 p-4 text-xs text-slate-100"
        >
          <code>{VERIFY_RECIPE}</code>
        </pre>
      </section>
      {(dialog.kind === 'add' || dialog.kind === 'edit') && (
        <EndpointDialog
          key={dialog.seq}
          endpoint={dialog.kind === 'edit' ? dialog.endpoint : undefined}
          open={dialog.open}
          onClose={close}
          onSaved={(saved) => {
            close();
            setSelected(saved._id);
          }}
        />
      )}
      {dialog.kind === 'delete' && (
        <DeleteEndpointDialog
          key={dialog.seq}
          endpoint={dialog.endpoint}
          open={dialog.open}
          onClose={close}
          onDeleted={() => {
            close();
            setSelected(null);
          }}
        />
      )}
    </section>
  );
}
