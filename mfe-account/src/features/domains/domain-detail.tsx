import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { DnsRecord, SendingDomain } from '@console/shared/contracts';
import { formatDateTime } from '@console/shared/format';
import { Button, CopyField } from '@console/shared/ui';
import { invalidateDomains, storeDomain, verifyDomain } from './api';
import { RECORD_LABELS, STATE_LABELS, STATUS_LABELS } from './labels';
import { StatusBadge } from './status-badge';

/** The Verify button's request as one state (not three booleans). */
type VerifyState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'done'; domain: SendingDomain }
  | { kind: 'error'; message: string };

/** What the last check means, in a sentence (shown after Verify, in a live region). */
export function verifyResult(domain: SendingDomain): string {
  if (domain.status === 'verified') return `${domain.domain} is verified. You can send from it.`;
  const missing = domain.records.filter((r) => r.required && r.state !== 'verified').map((r) => RECORD_LABELS[r.kind]);
  return `${domain.domain} is not verified yet: check the ${missing.join(', ')} record${missing.length === 1 ? '' : 's'}. DNS changes can take a while to appear.`;
}

function RecordItem({ record }: { record: DnsRecord }) {
  const title = `${RECORD_LABELS[record.kind]} record`;
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-4" aria-label={title}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium text-slate-900">{title}</h3>
        <span className="text-xs text-slate-500">{record.type}</span>
        <span className="text-xs text-slate-500">{record.required ? 'Required' : 'Optional'}</span>
        <StatusBadge status={record.state} label={STATE_LABELS[record.state]} />
      </div>
      <CopyField label={`${title} name`} value={record.name} copiedMessage="Name copied." />
      <CopyField label={`${title} value`} value={record.value} copiedMessage="Value copied." />
      {record.state === 'failed' && record.found && (
        <p className="text-sm text-red-700">
          Found instead: <code className="break-all">{record.found}</code>
        </p>
      )}
    </li>
  );
}

/** One domain: its status, the records to publish with their last state, Verify and Delete. */
export function DomainDetail({
  domain,
  onBack,
  onDelete,
}: {
  domain: SendingDomain;
  onBack: () => void;
  onDelete: () => void;
}) {
  const client = useQueryClient();
  const [verify, setVerify] = useState<VerifyState>({ kind: 'idle' });
  const headingId = `domain-${domain._id}`;

  const run = async () => {
    setVerify({ kind: 'checking' });
    try {
      const checked = await verifyDomain(domain._id);
      storeDomain(client, checked);
      setVerify({ kind: 'done', domain: checked });
      await invalidateDomains(client);
    } catch (error) {
      setVerify({ kind: 'error', message: messageOf(error, 'The records could not be checked. Please try again.') });
    }
  };

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {domain.domain}
          </h2>
          <StatusBadge status={domain.status} label={STATUS_LABELS[domain.status]} />
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onBack}>
            Back to domains
          </Button>
          <Button variant="danger" onClick={onDelete}>
            Delete
          </Button>
          <Button onClick={() => void run()} busy={verify.kind === 'checking'}>
            Verify
          </Button>
        </div>
      </div>
      <p className="text-sm text-slate-600">
        Publish these records at your DNS provider, then press Verify.
        {domain.last_checked_at ? ` Last checked ${formatDateTime(domain.last_checked_at)}.` : ' Not checked yet.'}
      </p>
      <div role="status" aria-live="polite" className="text-sm">
        {verify.kind === 'checking' && <span>Checking the DNS records…</span>}
        {verify.kind === 'done' && (
          <span className={verify.domain.status === 'verified' ? 'text-green-800' : 'text-amber-900'}>
            {verifyResult(verify.domain)}
          </span>
        )}
      </div>
      {verify.kind === 'error' && (
        <p role="alert" className="text-sm text-red-700">
          {verify.message}
        </p>
      )}
      <ul className="space-y-4" aria-label={`DNS records of ${domain.domain}`}>
        {domain.records.map((record) => (
          <RecordItem key={record.kind} record={record} />
        ))}
      </ul>
    </section>
  );
}
