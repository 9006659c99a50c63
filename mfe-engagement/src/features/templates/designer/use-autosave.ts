import { useCallback, useRef, useState } from 'react';
import { ApiError, messageOf } from '@console/shared/api';
import type { MergeTagWarning, TemplateSaved } from '@console/shared/contracts';
import { fetchTemplate, updateTemplate } from '../api';
import { useDebouncedSave } from './use-debounced-save';

/** What a designer save sends. */
export interface DesignSnapshot {
  mjml: string;
  project: Record<string, unknown> | null;
  subject: string;
  preview_text: string;
}

export type SaveStatus =
  | { kind: 'saved' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  /** The last save was refused or failed; the last saved version is unchanged. `errors` are the 400's per field. */
  | { kind: 'failed'; message: string; errors: Record<string, string[]> };

/** Autosave waits this long after the last change (the spec forbids an unsaved-changes prompt: nothing may wait long). */
export const AUTOSAVE_DELAY_MS = 1000;

export interface AutosaveOptions {
  templateId: string;
  /** The version the designer loaded. */
  version: number;
  /** What was loaded, so opening the designer saves nothing. */
  loaded: DesignSnapshot;
  read: () => Promise<DesignSnapshot>;
  onSaved: (saved: TemplateSaved) => void;
  delayMs?: number;
}

/**
 * Autosave: a save a moment after the last change, one at a time (a change made during a save is
 * saved right after it), nothing sent when nothing changed. A 409 (another save came in between,
 * kept as a version of its own) is answered by saving again on top of it: the latest edit wins and
 * the other stays restorable from the versions.
 */
export function useAutosave({
  templateId,
  version,
  loaded,
  read,
  onSaved,
  delayMs = AUTOSAVE_DELAY_MS,
}: AutosaveOptions) {
  const [status, setStatus] = useState<SaveStatus>({ kind: 'saved' });
  const [warnings, setWarnings] = useState<MergeTagWarning[]>([]);
  const base = useRef(version);
  const lastSaved = useRef(JSON.stringify(loaded));
  const changes = useRef(0);
  const latest = useRef({ read, onSaved });
  latest.current = { read, onSaved };

  const saveOnce = useCallback(async (): Promise<boolean> => {
    const seen = changes.current;
    const snapshot = await latest.current.read();
    const key = JSON.stringify(snapshot);
    if (key === lastSaved.current) {
      if (changes.current === seen) setStatus({ kind: 'saved' });
      return true;
    }
    setStatus({ kind: 'saving' });
    const send = () => updateTemplate(templateId, { ...snapshot, base_version: base.current });
    try {
      let saved: TemplateSaved;
      try {
        saved = await send();
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        base.current = (await fetchTemplate(templateId)).version;
        saved = await send();
      }
      base.current = saved.template.version;
      lastSaved.current = key;
      setWarnings(saved.warnings);
      setStatus(changes.current === seen ? { kind: 'saved' } : { kind: 'pending' });
      latest.current.onSaved(saved);
      return true;
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: messageOf(error, 'The changes could not be saved.'),
        errors: error instanceof ApiError ? (error.body.errors ?? {}) : {},
      });
      return false;
    }
  }, [templateId]);

  const { flush, schedule, cancel } = useDebouncedSave(saveOnce, delayMs);

  const changed = useCallback(() => {
    changes.current += 1;
    setStatus((s) => (s.kind === 'saving' ? s : { kind: 'pending' }));
    schedule();
  }, [schedule]);

  /** After a restore: the designer now shows this version, already saved. */
  const reset = useCallback(
    (next: DesignSnapshot, nextVersion: number) => {
      cancel();
      base.current = nextVersion;
      lastSaved.current = JSON.stringify(next);
      setWarnings([]);
      setStatus({ kind: 'saved' });
    },
    [cancel],
  );

  return { status, warnings, changed, flush, reset };
}
