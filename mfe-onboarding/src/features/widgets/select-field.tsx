import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

const SELECT_CLASS =
  'block w-full rounded-control border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset focus:ring-2 focus:ring-inset focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50';

export interface SelectFieldProps extends Omit<ComponentPropsWithRef<'select'>, 'children'> {
  label: ReactNode;
  /** Shown under the select, with aria-invalid and aria-describedby. */
  error?: string | null;
  children: ReactNode;
}

/** A labelled native select with an error line. */
export function SelectField({ label, error, children, className, id, ...rest }: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  return (
    <div>
      <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        {...rest}
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={[
          SELECT_CLASS,
          error ? 'ring-red-400 focus:ring-red-600' : 'ring-slate-300 focus:ring-brand-600',
          className,
        ]
          .filter(Boolean)
          .join(' ')}
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
