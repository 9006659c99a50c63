import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

const SELECT_BASE =
  'block w-full rounded-control border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset focus:ring-2 focus:ring-inset focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50';
const SELECT_RING = 'ring-slate-300 focus:ring-brand-600';
const SELECT_ERROR_RING = 'ring-red-400 focus:ring-red-600';

/** The look of a native select next to the shared TextField, for selects laid out by hand. */
export const SELECT_CLASS = `${SELECT_BASE} ${SELECT_RING}`;

export interface SelectFieldProps extends Omit<ComponentPropsWithRef<'select'>, 'children'> {
  label: ReactNode;
  hideLabel?: boolean;
  /** Shown under the select, with aria-invalid and aria-describedby. */
  error?: string | null;
  children: ReactNode;
  containerClassName?: string;
}

/** A labelled native select with an error line (native: keyboard and screen readers for free). */
export function SelectField({
  label,
  hideLabel = false,
  error,
  children,
  containerClassName,
  className,
  id,
  ...rest
}: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  return (
    <div className={containerClassName}>
      <label htmlFor={selectId} className={hideLabel ? 'sr-only' : 'mb-1 block text-sm font-medium text-slate-800'}>
        {label}
      </label>
      <select
        {...rest}
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={[SELECT_BASE, error ? SELECT_ERROR_RING : SELECT_RING, className].filter(Boolean).join(' ')}
      >
        {children}
      </select>
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
