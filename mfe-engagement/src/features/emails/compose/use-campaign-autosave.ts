import { useCallback, useRef, useState } from 'react';
import { ApiError, messageOf } from '@console/shared/api';
import type { Campaign } from '@console/shared/contracts';
import { updateCampaign } from '../api';
import { CONFLICT_MESSAGE, type ComposeDraft } from '../campaign-rules';
import { useDebouncedSave } from '../../templates/designer/use-debounced-save';

export type CampaignSaveStatus =
  | { kind: 'saved' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  /** A 409: a newer version was saved elsewhere (or sending started); nothing here overwrites it. */
  | { kind: 'conflict'; message: string }
  | { kind: 'failed'; message: string; errors: Record<string, string[]> };

/** Autosave waits this long after the last change, as the designer's does. */
export const CAMPAIGN_AUTOSAVE_MS = 800;

/** The editable fields of a campaign, as compose holds them. */
export function draftOf(c: Campaign): ComposeDraft {
  return {
    name: c.name,
    subject: c.subject,
    preview_text: c.preview_text,
    template_id: c.template_id,
    audience: c.audience,
    from_name: c.from_name,
    from_email: c.from_email,
    reply_to: c.reply_to,
    track_opens: c.track_opens,
    track_clicks: c.track_clicks,
    utm: c.utm,
  };
}

/**
 * Compose's autosave (as the designer's): a PATCH with `base_version` a moment after the last change,
 * one at a time, nothing sent when nothing changed. Unlike the designer it never saves over a 409: the
 * status turns to 'conflict' and compose offers to reload.
 */
export function useCampaignAutosave({
  campaignId,
  version,
  loaded,
  read,
  onSaved,
  delayMs = CAMPAIGN_AUTOSAVE_MS,
}: {
  campaignId: string;
  version: number;
  loaded: ComposeDraft;
  read: () => ComposeDraft;
  onSaved: (saved: Campaign) => void;
  delayMs?: number;
}) {
  const [status, setStatus] = useState<CampaignSaveStatus>({ kind: 'saved' });
  const base = useRef(version);
  const lastSaved = useRef(JSON.stringify(loaded));
  const blocked = useRef(false);
  const latest = useRef({ read, onSaved });
  latest.current = { read, onSaved };

  const saveOnce = useCallback(async (): Promise<boolean> => {
    if (blocked.current) return false;
    const snapshot = latest.current.read();
    const key = JSON.stringify(snapshot);
    if (key === lastSaved.current) {
      setStatus({ kind: 'saved' });
      return true;
    }
    setStatus({ kind: 'saving' });
    try {
      const saved = await updateCampaign(campaignId, { ...snapshot, base_version: base.current });
      base.current = saved.version;
      lastSaved.current = key;
      setStatus(JSON.stringify(latest.current.read()) === key ? { kind: 'saved' } : { kind: 'pending' });
      latest.current.onSaved(saved);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        blocked.current = true;
        setStatus({ kind: 'conflict', message: CONFLICT_MESSAGE });
      } else {
        setStatus({
          kind: 'failed',
          message: messageOf(error, 'The changes could not be saved.'),
          errors: error instanceof ApiError ? (error.body.errors ?? {}) : {},
        });
      }
      return false;
    }
  }, [campaignId]);

  const { flush, schedule } = useDebouncedSave(saveOnce, delayMs);

  const changed = useCallback(() => {
    if (blocked.current) return;
    setStatus((s) => (s.kind === 'saving' ? s : { kind: 'pending' }));
    schedule();
  }, [schedule]);

  /** The campaign changed on the server by an action of this page (send, unschedule): take its version. */
  const rebase = useCallback((next: Campaign, draft: ComposeDraft) => {
    base.current = next.version;
    lastSaved.current = JSON.stringify(draft);
  }, []);

  return { status, changed, flush, rebase };
}
