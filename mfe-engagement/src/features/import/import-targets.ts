import type { CustomAttribute, ImportField, ImportStatus } from '@console/shared/contracts';
import { attributeTarget } from './suggest-mapping';

export const MAP_IDENTITY_MESSAGE = 'Map a column to E-mail or Wallet.';

export const FIELD_LABELS: Record<ImportField, string> = {
  email: 'E-mail',
  wallet: 'Wallet',
  first_name: 'First name',
  last_name: 'Last name',
  status: 'Status',
};

export interface TargetOption {
  /** '' is "Do not import"; otherwise the ImportTarget. */
  value: string;
  label: string;
}

/** What a column can be imported as: nothing, a contact field, or a custom attribute. */
export function targetOptions(attributes: readonly Pick<CustomAttribute, 'key' | 'name'>[]): {
  fields: TargetOption[];
  attributes: TargetOption[];
} {
  return {
    fields: [
      { value: '', label: 'Do not import' },
      ...Object.entries(FIELD_LABELS).map(([value, label]) => ({ value, label })),
    ],
    attributes: attributes.map((a) => ({ value: attributeTarget(a.key), label: `${a.name} (attribute)` })),
  };
}

/** How a job's status reads on the progress screen. */
export const STATUS_TEXT: Record<ImportStatus, string> = {
  uploaded: 'Uploaded, not started yet',
  queued: 'Waiting to start…',
  running: 'Importing…',
  completed: 'Import complete',
  failed: 'Import failed',
  cancelled: 'Import cancelled',
};

/** Short status names for the recent imports grid. */
export const STATUS_LABEL: Record<ImportStatus, string> = {
  uploaded: 'Uploaded',
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const STATUS_TONE: Record<ImportStatus, string> = {
  uploaded: 'bg-slate-100 text-slate-700',
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-brand-50 text-brand-700',
  completed: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
  cancelled: 'bg-amber-50 text-amber-800',
};
