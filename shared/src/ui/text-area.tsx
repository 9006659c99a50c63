import type { ChangeEvent, ComponentPropsWithRef } from 'react';
import { FieldFrame, useFieldState, type FieldFrameProps } from './field-parts';

/** Spec section 5: text areas default to 500 characters. */
export const TEXT_AREA_MAX_LENGTH = 500;

export interface TextAreaProps extends Omit<ComponentPropsWithRef<'textarea'>, 'children'>, FieldFrameProps {}

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
  const state = useFieldState({ id, error, hint, showCounter, maxLength, value, defaultValue, describedBy, className });
  return (
    <FieldFrame state={state} label={label} hideLabel={hideLabel} hint={hint} containerClassName={containerClassName}>
      <textarea
        {...rest}
        {...state.controlProps}
        rows={rows}
        value={value}
        defaultValue={defaultValue}
        onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
          state.onLength(event.target.value.length);
          onChange?.(event);
        }}
      />
    </FieldFrame>
  );
}
