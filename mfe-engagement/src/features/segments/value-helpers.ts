import type { ChangeEvent } from 'react';

/** A rule value shown in a text box: strings as they are, numbers written out, anything else empty. */
export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** Numbers stay numbers in the rule JSON; an empty box is ''. */
export const numberOf = (event: ChangeEvent<HTMLInputElement>): number | '' =>
  event.target.value === '' || Number.isNaN(event.target.valueAsNumber) ? '' : event.target.valueAsNumber;
