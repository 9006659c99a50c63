import { useId, useRef, useState, type FormEvent } from 'react';
import { SelectField, TextField } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { CAMPAIGN_LIMITS } from '@console/shared/contracts';
import { timeZoneLabel, timeZones } from '@console/shared/format';
import { instantToZoned, scheduleProblem, zonedToInstant } from '../campaign-rules';

/**
 * Choose when to send: a date and a time on the wall clock of a time zone, sent as an instant with the
 * zone kept for display. A new schedule starts in `defaultZone`: the caller passes the session user's
 * zone (their own, else the community's), else the browser's (defaultScheduleZone in
 * @console/shared/format). Mount with a key per opening.
 */
export function ScheduleDialog({
  open,
  onClose,
  initial,
  defaultZone,
  onSchedule,
}: {
  open: boolean;
  onClose: () => void;
  /** The current schedule, when changing one. */
  initial: { at: string; timeZone: string } | null;
  defaultZone: string;
  /** Resolves when scheduled; rejects with a message to show. */
  onSchedule: (instant: string, timeZone: string) => Promise<void>;
}) {
  const formId = useId();
  const dateRef = useRef<HTMLInputElement>(null);
  // The current schedule, or an hour from now on the default zone's clock.
  const [start] = useState(() => {
    const zone = initial?.timeZone || defaultZone;
    const at = initial?.at ?? new Date(Date.now() + 3_600_000).toISOString();
    return { zone, ...instantToZoned(at, zone) };
  });
  const [date, setDate] = useState(start.date);
  const [time, setTime] = useState(start.time);
  const [zone, setZone] = useState(start.zone);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const instant = zonedToInstant(date, time, zone);
    const problem = scheduleProblem(instant, Date.now(), CAMPAIGN_LIMITS.scheduleAheadDays);
    if (problem || !instant) {
      setError(problem);
      dateRef.current?.focus();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSchedule(instant, zone);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The e-mail could not be scheduled.');
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={initial ? 'Change the schedule' : 'Schedule'}
      dismissible={!saving}
      initialFocus={dateRef}
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Schedule" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {error && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField ref={dateRef} label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          <TextField label="Time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
        </div>
        <SelectField label="Time zone" value={zone} onChange={(e) => setZone(e.target.value)}>
          {timeZones(zone).map((z) => (
            <option key={z} value={z}>
              {timeZoneLabel(z)}
            </option>
          ))}
        </SelectField>
      </form>
    </Dialog>
  );
}
