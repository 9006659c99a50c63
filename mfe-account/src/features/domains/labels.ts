/** What the console calls each status, state and record (our wording). */
import type { DnsRecordKind, DnsRecordState, DomainStatus } from '@console/shared/contracts';

export const STATUS_LABELS: Record<DomainStatus, string> = {
  pending: 'Pending',
  verified: 'Verified',
  failed: 'Failed',
};

export const STATE_LABELS: Record<DnsRecordState, string> = {
  pending: 'Not found yet',
  verified: 'Verified',
  failed: 'Wrong value',
};

export const RECORD_LABELS: Record<DnsRecordKind, string> = {
  verification: 'Ownership',
  spf: 'SPF',
  dkim: 'DKIM',
  dmarc: 'DMARC',
  tracking: 'Click tracking',
};

const TONES: Record<DomainStatus | DnsRecordState, string> = {
  pending: 'bg-amber-100 text-amber-900',
  verified: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
};

export const toneOf = (status: DomainStatus | DnsRecordState) => TONES[status];
