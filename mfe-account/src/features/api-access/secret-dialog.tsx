import { Dialog } from '@console/shared/overlays';
import { Button, CopyField } from '@console/shared/ui';
import type { CreatedApiKey } from '@console/shared/contracts';
import { scopeLabel } from './key-texts';

export const SECRET_WARNING = 'Copy this key now and keep it somewhere safe: it will not be shown again.';

/**
 * The new key's secret, shown this once in a read-only copy field. The secret lives only in the
 * parent's dialog state: closing drops that state, so no element (and no cache) holds it afterwards.
 */
export function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  return (
    <Dialog
      open
      onClose={onClose}
      title="Your new API key"
      size="lg"
      testId="key-secret-dialog"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      <div className="space-y-4">
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {SECRET_WARNING}
        </p>
        <CopyField label={`Secret of ${created.name}`} value={created.secret} copiedMessage="The key was copied." />
        <p className="text-sm text-slate-600">
          Scope: {scopeLabel(created.scope)}. Send it as <code>Authorization: Bearer {created.prefix}…</code> from your
          own server only, never from a web page or an app your users download.
        </p>
      </div>
    </Dialog>
  );
}
