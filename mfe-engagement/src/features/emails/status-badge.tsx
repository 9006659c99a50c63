import type { CampaignStatus } from '@console/shared/contracts';
import { STATUS_LABELS } from './campaign-rules';

const TONES: Record<CampaignStatus, string> = {
  draft: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  scheduled: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  sending: 'bg-brand-50 text-brand-800 ring-brand-600/20',
  paused: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  sent: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  cancelled: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  failed: 'bg-red-50 text-red-800 ring-red-600/20',
};

/** A campaign's status as a badge (text, never colour alone). */
export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <span
      data-testid="campaign-status"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[status]}`}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}
