import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import { ConfirmDialog } from '@console/shared/overlays';
import { Button, CopyField, notify } from '@console/shared/ui';
import { fetchSecret, rotateSecret, secretKey } from './api';

/** The endpoint's signing secret: hidden until revealed, then in a copy field; Rotate makes a new one. */
export function SecretSection({ endpointId }: { endpointId: string }) {
  const client = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const reveal = async () => {
    setLoading(true);
    try {
      setSecret(
        (await client.fetchQuery({ queryKey: secretKey(endpointId), queryFn: () => fetchSecret(endpointId) })).secret,
      );
    } catch (error) {
      notify.error(messageOf(error, 'The secret could not be read.'));
    } finally {
      setLoading(false);
    }
  };

  const rotate = async () => {
    const rotated = await rotateSecret(endpointId);
    client.setQueryData(secretKey(endpointId), rotated);
    setSecret(rotated.secret);
    setConfirming(false);
    notify.success('A new signing secret was made. Update your receiver with it.');
  };

  return (
    <section aria-labelledby={`secret-${endpointId}`} className="mt-6">
      <h3 id={`secret-${endpointId}`} className="mb-2 text-base font-semibold text-slate-900">
        Signing secret
      </h3>
      <p className="mb-3 text-sm text-slate-600">
        Each delivery is signed with this secret (Standard Webhooks: the webhook-id, webhook-timestamp and
        webhook-signature headers). Keep it on your server only.
      </p>
      {secret ? (
        <CopyField label="Signing secret" value={secret} copiedMessage="Secret copied to clipboard." />
      ) : (
        <Button variant="secondary" disabled={loading} onClick={() => void reveal()}>
          Reveal secret
        </Button>
      )}
      <Button variant="link" className="mt-3 block" onClick={() => setConfirming(true)}>
        Rotate secret
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Rotate the signing secret?"
        confirmVariant="danger"
        cancelText="Cancel"
        onConfirm={rotate}
        onError={(error) => {
          setConfirming(false);
          notify.error(messageOf(error, 'The secret could not be rotated.'));
        }}
      >
        <p className="text-slate-700">
          A new secret signs every delivery from now on, and the current one stops at once. Deliveries fail your check
          until your receiver has the new secret.
        </p>
      </ConfirmDialog>
    </section>
  );
}
