import { useId, useState, type ReactNode } from 'react';

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

/** What TextField and TextArea share: the props around the control. */
export interface FieldFrameProps {
  label: ReactNode;
  /** Visually hide the label (it still names the control). */
  hideLabel?: boolean;
  /** Field error(s); the first one shows under the field, with aria-invalid and aria-describedby. */
  error?: FieldError;
  hint?: ReactNode;
  /** Show 'remaining/max' under the field. */
  showCounter?: boolean;
  /** Classes of the wrapper. */
  containerClassName?: string;
}

interface FieldStateInput {
  id: string | undefined;
  error: FieldError;
  hint: ReactNode;
  showCounter: boolean;
  maxLength: number;
  value: unknown;
  defaultValue: unknown;
  describedBy: string | undefined;
  className: string | undefined;
}

/** Ids, error, counter and the control's aria/class props, for any labelled control. */
export function useFieldState(input: FieldStateInput) {
  const autoId = useId();
  const id = input.id ?? autoId;
  const [typed, setTyped] = useState(() => valueLength(input.defaultValue));
  const message = firstError(input.error);
  const length = input.value === undefined ? typed : valueLength(input.value);
  const counter = input.showCounter ? counterText(length, input.maxLength) : null;
  const ids = { error: `${id}-error`, hint: `${id}-hint`, counter: `${id}-counter` };
  return {
    id,
    message,
    counter,
    ids,
    onLength: setTyped,
    controlProps: {
      id,
      maxLength: input.maxLength,
      'aria-invalid': message ? true : undefined,
      'aria-describedby': joinIds(
        input.describedBy,
        message && ids.error,
        input.hint ? ids.hint : null,
        counter !== null && ids.counter,
      ),
      className: [CONTROL_CLASS, message ? CONTROL_INVALID : CONTROL_OK, input.className].filter(Boolean).join(' '),
    },
  };
}

/** Label above, control, then error, hint and counter below. */
export function FieldFrame({
  state,
  label,
  hideLabel,
  hint,
  containerClassName,
  children,
}: {
  state: ReturnType<typeof useFieldState>;
  label: ReactNode;
  hideLabel: boolean;
  hint: ReactNode;
  containerClassName: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={containerClassName}>
      <label htmlFor={state.id} className={hideLabel ? 'sr-only' : 'mb-1 block text-sm font-medium text-slate-800'}>
        {label}
      </label>
      {children}
      <FieldFooter
        hint={hint}
        hintId={state.ids.hint}
        error={state.message}
        errorId={state.ids.error}
        counter={state.counter}
        counterId={state.ids.counter}
      />
    </div>
  );
}
