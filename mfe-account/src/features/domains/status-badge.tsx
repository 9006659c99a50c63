import type { DnsRecordState, DomainStatus } from '@console/shared/contracts';
import { toneOf } from './labels';

/** A status as a coloured pill; the text carries the meaning (not the colour alone). */
export function StatusBadge({ status, label }: { status: DomainStatus | DnsRecordState; label: string }) {
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${toneOf(status)}`}>{label}</span>;
}
