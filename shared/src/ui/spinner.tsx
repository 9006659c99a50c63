export interface SpinnerProps {
  /** Tailwind size classes; default h-5 w-5. */
  className?: string;
  /** Accessible label (default 'Loading'). Ignored when decorative. */
  label?: string;
  /** Hide from assistive technology (when the surrounding element already announces the state, e.g. a busy button). */
  decorative?: boolean;
}

/** A spinning ring. Announced as a status named 'Loading' unless decorative. */
export function Spinner({ className = 'h-5 w-5', label = 'Loading', decorative = false }: SpinnerProps) {
  const a11y = decorative ? { 'aria-hidden': true } : { role: 'status', 'aria-label': label };
  return (
    <span {...a11y} className={`inline-block shrink-0 ${className}`}>
      <svg className="h-full w-full animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <circle className="opacity-25" cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" />
        <path className="opacity-75" fill="currentColor" d="M4 12a8 8 0 0 1 8-8v4a4 4 0 0 0-4 4H4z" />
      </svg>
    </span>
  );
}
