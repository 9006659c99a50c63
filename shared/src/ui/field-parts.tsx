import type { ReactNode } from 'react';

/** A field's error: one message, a list (server errors come as arrays: the first one shows) or nothing. */
export type FieldError = string | readonly string[] | null | undefined;

export function firstError(error: FieldError): string | null {
  if (error === null || error === undefined) return null;
  if (typeof error === 'string') return error || null;
  return error.find((message) => message.length > 0) ?? null;
}

/** 'remaining/max' as the spec's counter shows it. */
export function counterText(length: number, max: number): string {
  return `${Math.max(0, max - length)}/${max}`;
}

export function valueLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return String(value).length;
  return 0;
}

export function joinIds(...ids: Array<string | null | undefined | false>): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
  return list.length > 0 ? list.join(' ') : undefined;
}

export const CONTROL_CLASS =
  'block w-full rounded-control border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500';
export const CONTROL_OK = 'ring-slate-300 focus:ring-brand-600';
export const CONTROL_INVALID = 'ring-red-400 focus:ring-red-600';

export function FieldFooter({
  hint,
  hintId,
  error,
  errorId,
  counter,
  counterId,
}: {
  hint?: ReactNode;
  hintId: string;
  error: string | null;
  errorId: string;
  counter: string | null;
  counterId: string;
}) {
  if (!hint && !error && counter === null) return null;
  return (
    <div className="mt-1 flex items-start justify-between gap-3 text-xs">
      <div className="min-w-0">
        {error ? (
          <p id={errorId} className="text-red-700">
            {error}
          </p>
        ) : null}
        {hint ? (
          <p id={hintId} className="text-slate-500">
            {hint}
          </p>
        ) : null}
      </div>
      {counter !== null && (
        <span id={counterId} className="shrink-0 text-slate-500 tabular-nums" data-testid="field-counter">
          {counter}
        </span>
      )}
    </div>
  );
}
