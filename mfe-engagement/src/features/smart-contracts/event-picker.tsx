import { useId } from 'react';
import type { AbiEvent } from '@console/shared/contracts';
import { describeArguments } from './watch-rules';

export interface EventPickerProps {
  events: readonly AbiEvent[];
  picked: readonly string[];
  onToggle: (signature: string, on: boolean) => void;
  /** Shown under the choices (e.g. 'Choose at least one event.'). */
  error?: string | null;
  legend?: string;
  disabled?: boolean;
}

/**
 * The events to watch, picked from the ABI: a fieldset whose legend names the choice, one checkbox per
 * event labelled with its signature and described by its arguments.
 */
export function EventPicker({
  events,
  picked,
  onToggle,
  error,
  legend = 'Events to watch',
  disabled = false,
}: EventPickerProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined} disabled={disabled}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <ul className="max-h-64 space-y-2 overflow-y-auto rounded-control border border-slate-200 p-3">
        {events.map((event, i) => {
          const boxId = `${id}-${i}`;
          return (
            <li key={event.signature} className="flex items-start gap-3">
              <input
                id={boxId}
                type="checkbox"
                checked={picked.includes(event.signature)}
                onChange={(e) => onToggle(event.signature, e.target.checked)}
                aria-describedby={`${boxId}-args`}
                className="mt-0.5 h-4 w-4 accent-brand-600"
              />
              <div className="min-w-0">
                <label htmlFor={boxId} className="font-mono text-sm break-all text-slate-900">
                  {event.signature}
                </label>
                <p id={`${boxId}-args`} className="text-xs text-slate-600">
                  {describeArguments(event)}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      {error && (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
