import { formatCount } from '@console/shared/format';

/** What deleting an attribute costs, in the words of the delete dialog. */
export function valueCountText(count: number | undefined): string {
  if (count === undefined) return 'Deleting it removes the values contacts hold for it.';
  if (count === 0) return 'No contacts have a value for this attribute.';
  if (count === 1) return '1 contact has a value for this attribute. Deleting it removes that value.';
  return `${formatCount(count)} contacts have a value for this attribute. Deleting it removes those values.`;
}
