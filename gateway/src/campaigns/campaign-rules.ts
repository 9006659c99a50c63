/**
 * The campaign status rules, pure (issue text "Status rules"; spec section 4 style of transitions):
 *
 *   draft → (send) sending | (schedule) scheduled
 *   scheduled → (send) sending | (schedule) scheduled again | (unschedule) draft
 *   sending ⇄ paused (pause, resume)
 *   draft, scheduled, sending, paused → (cancel) cancelled
 *
 * Editing is for drafts and scheduled campaigns (a change keeps the schedule); deleting for drafts,
 * cancelled and failed ones. `sent` and `failed` are reached by the sender, never by a request.
 */
import type { CampaignStatus } from '../contracts';

export type CampaignAction = 'send' | 'schedule' | 'unschedule' | 'pause' | 'resume' | 'cancel' | 'edit' | 'delete';

interface Rule {
  from: readonly CampaignStatus[];
  /** The status after the action; null: the status does not change (edit) or the row goes (delete). */
  to: CampaignStatus | null;
  /** Why a campaign in another status is refused (409). */
  refused: string;
}

export const CAMPAIGN_RULES: Record<CampaignAction, Rule> = {
  send: { from: ['draft', 'scheduled'], to: 'sending', refused: 'Only a draft or a scheduled e-mail can be sent.' },
  schedule: {
    from: ['draft', 'scheduled'],
    to: 'scheduled',
    refused: 'Only a draft or a scheduled e-mail can be scheduled.',
  },
  unschedule: { from: ['scheduled'], to: 'draft', refused: 'Only a scheduled e-mail can be unscheduled.' },
  pause: { from: ['sending'], to: 'paused', refused: 'Only an e-mail that is sending can be paused.' },
  resume: { from: ['paused'], to: 'sending', refused: 'Only a paused e-mail can be resumed.' },
  cancel: {
    from: ['draft', 'scheduled', 'sending', 'paused'],
    to: 'cancelled',
    refused: 'This e-mail has already finished: it cannot be cancelled.',
  },
  edit: {
    from: ['draft', 'scheduled'],
    to: null,
    refused: 'Only a draft or a scheduled e-mail can be edited. Duplicate it to make changes.',
  },
  delete: {
    from: ['draft', 'cancelled', 'failed'],
    to: null,
    refused: 'Only drafts, cancelled and failed e-mails can be deleted. Cancel it first.',
  },
};

/** Whether `action` is allowed on a campaign in `status`. */
export function allows(action: CampaignAction, status: CampaignStatus): boolean {
  return CAMPAIGN_RULES[action].from.includes(status);
}

/** The status after `action`, or null when the action is refused in `status` (or does not change it). */
export function nextStatus(action: CampaignAction, status: CampaignStatus): CampaignStatus | null {
  return allows(action, status) ? CAMPAIGN_RULES[action].to : null;
}
