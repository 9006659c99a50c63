import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';
import { CONTROL_CLASS, CONTROL_OK } from './field-parts';
import { COPY_FOCUS_DELAY_MS } from './timings';
import { notify } from './toasts';

export interface CopyFieldProps {
  label: string;
  value: string;
  /** Text of the copy button (default 'Copy'). */
  copyText?: string;
  /** Toast shown after copying (default 'Copied to clipboard.'). */
  copiedMessage?: string;
  /** Toast duration (default: the toasts' default). */
  toastDuration?: number;
  /** Extra actions next to the copy button (e.g. an open link). */
  actions?: ReactNode;
}

export const COPY_FAILED = 'Could not copy. The text is selected: press Ctrl+C to copy it.';

/**
 * A read-only value with a copy action: copies to the clipboard, toasts, and COPY_FOCUS_DELAY_MS
 * later focuses and selects the field (so the text can also be copied by hand).
 */
export function CopyField({
  label,
  value,
  copyText = 'Copy',
  copiedMessage = 'Copied to clipboard.',
  toastDuration,
  actions,
}: CopyFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    const options = toastDuration === undefined ? undefined : { duration: toastDuration };
    try {
      await navigator.clipboard.writeText(value);
      notify.success(copiedMessage, options);
    } catch {
      notify.error(COPY_FAILED, options);
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      inputRef.current?.focus();
      inputRef.current?.select();
    }, COPY_FOCUS_DELAY_MS);
  };

  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={inputRef}
          id={id}
          type="text"
          readOnly
          value={value}
          className={`${CONTROL_CLASS} ${CONTROL_OK} min-w-0 flex-1 bg-slate-50`}
        />
        <Button variant="secondary" onClick={() => void copy()} aria-label={`${copyText} ${label}`}>
          {copyText}
        </Button>
        {actions}
      </div>
    </div>
  );
}
