import { useRef, type KeyboardEvent } from 'react';
import { STEPS, STEP_LABELS, type Step } from '../campaign-rules';

export const stepTabId = (step: Step) => `compose-step-${step}`;
export const stepPanelId = (step: Step) => `compose-panel-${step}`;

/**
 * The compose steps as tabs (WAI-ARIA tabs pattern): one tab stop, Left/Right arrows move between
 * steps, Home and End go to the first and last; a step with something missing is marked.
 */
export function Stepper({
  current,
  onChange,
  incomplete,
}: {
  current: Step;
  onChange: (step: Step) => void;
  /** Steps with something missing (shown with a dot and said to screen readers). */
  incomplete: ReadonlySet<Step>;
}) {
  const refs = useRef<Partial<Record<Step, HTMLButtonElement | null>>>({});
  const move = (event: KeyboardEvent, index: number) => {
    const last = STEPS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % STEPS.length
        : event.key === 'ArrowLeft'
          ? (index + last) % STEPS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const step = STEPS[next] ?? 'audience';
    onChange(step);
    refs.current[step]?.focus();
  };
  return (
    <div role="tablist" aria-label="Steps" className="flex items-center gap-1">
      {STEPS.map((step, index) => {
        const selected = step === current;
        return (
          <button
            key={step}
            ref={(node) => {
              refs.current[step] = node;
            }}
            id={stepTabId(step)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={stepPanelId(step)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(step)}
            onKeyDown={(event) => move(event, index)}
            className={`flex items-center gap-2 rounded-control px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${
              selected ? 'bg-brand-600 text-white' : 'text-slate-800 hover:bg-slate-100'
            }`}
          >
            <span
              aria-hidden="true"
              className={`flex h-5 w-5 items-center justify-center rounded-full text-xs ${
                selected ? 'bg-white text-brand-700' : 'bg-slate-200 text-slate-800'
              }`}
            >
              {index + 1}
            </span>
            {STEP_LABELS[step]}
            {incomplete.has(step) && (
              <>
                <span aria-hidden="true" className="h-2 w-2 rounded-full bg-amber-500" />
                <span className="sr-only">(incomplete)</span>
              </>
            )}
          </button>
        );
      })}
    </div>
  );
}
