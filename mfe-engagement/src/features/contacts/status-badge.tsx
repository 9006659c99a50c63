import type { ContactStatus } from '@console/shared/contracts';
import { STATUS_LABELS } from './contact-format';

const TONES: Record<ContactStatus, string> = {
  subscribed: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  unsubscribed: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  bounced: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  complained: 'bg-red-50 text-red-800 ring-red-600/20',
};

export function StatusBadge({ status }: { status: ContactStatus }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}
