import { useId, useState, type ChangeEvent, type ComponentPropsWithRef, type ReactNode } from 'react';
import {
  CONTROL_CLASS,
  CONTROL_INVALID,
  CONTROL_OK,
  FieldFooter,
  counterText,
  firstError,
  joinIds,
  valueLength,
  type FieldError,
} from './field-parts';

/** Spec section 5: text areas default to 500 characters. */
export const TEXT_AREA_MAX_LENGTH = 500;

export interface TextAreaProps extends Omit<ComponentPropsWithRef<'textarea'>, 'children'> {
  label: ReactNode;
  /** Visually hide the label (it still names the input). */
  hideLabel?: boolean;
  /** Field error(s); the first one shows under the field, with aria-invalid and aria-describedby. */
  error?: FieldError;
  hint?: ReactNode;
  /** Show 'remaining/max' under the field. */
  showCounter?: boolean;
  /** Classes of the wrapper. */
  containerClassName?: string;
}

/** Labelled text area: maxLength 500 by default, optional remaining/max counter, first error under the field. */
export function TextArea({
  label,
  hideLabel = false,
  error,
  hint,
  showCounter = false,
  containerClassName,
  className,
  id,
  maxLength = TEXT_AREA_MAX_LENGTH,
  rows = 4,
  value,
  defaultValue,
  onChange,
  'aria-describedby': describedBy,
  ...rest
}: TextAreaProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const [typed, setTyped] = useState(() => valueLength(defaultValue));
  const message = firstError(error);
  const length = value === undefined ? typed : valueLength(value);
  const counter = showCounter ? counterText(length, maxLength) : null;
  const ids = { error: `${inputId}-error`, hint: `${inputId}-hint`, counter: `${inputId}-counter` };

  return (
    <div className={containerClassName}>
      <label htmlFor={inputId} className={hideLabel ? 'sr-only' : 'mb-1 block text-sm font-medium text-slate-800'}>
        {label}
      </label>
      <textarea
        {...rest}
        id={inputId}
        rows={rows}
        maxLength={maxLength}
        value={value}
        defaultValue={defaultValue}
        onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
          setTyped(event.target.value.length);
          onChange?.(event);
        }}
        aria-invalid={message ? true : undefined}
        aria-describedby={joinIds(
          describedBy,
          message && ids.error,
          hint ? ids.hint : null,
          counter !== null && ids.counter,
        )}
        className={[CONTROL_CLASS, message ? CONTROL_INVALID : CONTROL_OK, className].filter(Boolean).join(' ')}
      />
      <FieldFooter
        hint={hint}
        hintId={ids.hint}
        error={message}
        errorId={ids.error}
        counter={counter}
        counterId={ids.counter}
      />
    </div>
  );
}
