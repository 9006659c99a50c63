import type { ChangeEvent, ComponentPropsWithRef } from 'react';
import { FieldFrame, useFieldState, type FieldFrameProps } from './field-parts';

/** Spec section 5: text inputs default to 100 characters. */
export const TEXT_FIELD_MAX_LENGTH = 100;

export interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'children'>, FieldFrameProps {}

/** Labelled text input: maxLength 100 by default, optional remaining/max counter, first error under the field. */
export function TextField({
  label,
  hideLabel = false,
  error,
  hint,
  showCounter = false,
  containerClassName,
  className,
  id,
  maxLength = TEXT_FIELD_MAX_LENGTH,
  value,
  defaultValue,
  onChange,
  'aria-describedby': describedBy,
  ...rest
}: TextFieldProps) {
  const state = useFieldState({ id, error, hint, showCounter, maxLength, value, defaultValue, describedBy, className });
  return (
    <FieldFrame state={state} label={label} hideLabel={hideLabel} hint={hint} containerClassName={containerClassName}>
      <input
        {...rest}
        {...state.controlProps}
        value={value}
        defaultValue={defaultValue}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          state.onLength(event.target.value.length);
          onChange?.(event);
        }}
      />
    </FieldFrame>
  );
}
