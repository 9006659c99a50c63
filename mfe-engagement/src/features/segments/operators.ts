import {
  ONCHAIN_FIRST_SEEN_FIELD,
  OPERATORS_BY_KIND,
  VALUELESS_OPERATORS,
  type SegmentFieldKind,
  type SegmentOperator,
  type SegmentRuleValue,
} from '@console/shared/contracts';

/** How an operator reads in plain English, for a field of the given kind (and name, where it differs). */
export function operatorLabel(operator: SegmentOperator, kind: SegmentFieldKind, field = ''): string {
  if (kind === 'token') {
    if (operator === '>=') return 'holds at least';
    if (operator === '<') return 'holds less than';
    if (operator === 'between') return 'holds between';
  }
  if (kind === 'event') {
    if (operator === '>=') return 'at least';
    if (operator === '<') return 'fewer than';
  }
  if (field === ONCHAIN_FIRST_SEEN_FIELD) {
    if (operator === 'null') return 'never';
    if (operator === 'notNull') return 'at any time';
  }
  switch (operator) {
    case '=':
      return 'is';
    case '!=':
      return 'is not';
    case '<':
      return kind === 'date' ? 'is before' : 'is less than';
    case '<=':
      return 'is at most';
    case '>':
      return kind === 'date' ? 'is after' : 'is greater than';
    case '>=':
      return 'is at least';
    case 'contains':
      return 'contains';
    case 'doesNotContain':
      return 'does not contain';
    case 'beginsWith':
      return 'starts with';
    case 'endsWith':
      return 'ends with';
    case 'in':
      return kind === 'list' ? 'is member of any of' : 'is one of';
    case 'notIn':
      return kind === 'list' ? 'is member of none of' : 'is not one of';
    case 'between':
      return 'is between';
    case 'null':
      return 'is empty';
    case 'notNull':
      return 'is not empty';
    case 'lastDays':
      return 'within the last N days';
  }
}

/** The operators a field of this kind offers (the contract's allowlist), with their labels. */
export function operatorOptions(kind: SegmentFieldKind, field = ''): { name: SegmentOperator; label: string }[] {
  return OPERATORS_BY_KIND[kind].map((name) => ({ name, label: operatorLabel(name, kind, field) }));
}

export type ValueEditorKind =
  | 'none'
  | 'text'
  | 'number'
  | 'numberRange'
  | 'date'
  | 'dateRange'
  | 'days'
  | 'boolean'
  | 'select'
  | 'multiselect'
  | 'amount'
  | 'amountRange'
  | 'eventCount';

export function isSegmentOperator(operator: string, kind: SegmentFieldKind): operator is SegmentOperator {
  return (OPERATORS_BY_KIND[kind] as readonly string[]).includes(operator);
}

/** Which value editor a rule shows. Pure. */
export function valueEditorKind(kind: SegmentFieldKind, operator: string): ValueEditorKind {
  if (!isSegmentOperator(operator, kind) || VALUELESS_OPERATORS.includes(operator)) return 'none';
  switch (kind) {
    case 'text':
    case 'wallet':
      return 'text';
    case 'number':
      return operator === 'between' ? 'numberRange' : 'number';
    case 'date':
      return operator === 'between' ? 'dateRange' : operator === 'lastDays' ? 'days' : 'date';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return operator === 'in' || operator === 'notIn' ? 'multiselect' : 'select';
    case 'list':
      return 'multiselect';
    case 'token':
      return operator === 'between' ? 'amountRange' : 'amount';
    case 'event':
      return 'eventCount';
  }
}

/** The value a new rule (or a rule whose field or operator changed) starts with. Pure. */
export function defaultRuleValue(
  kind: SegmentFieldKind,
  operator: string,
  enumValues: readonly string[] = [],
): SegmentRuleValue {
  switch (valueEditorKind(kind, operator)) {
    case 'none':
    case 'text':
    case 'number':
    case 'date':
    case 'amount':
      return '';
    case 'numberRange':
    case 'dateRange':
    case 'amountRange':
      return ['', ''];
    case 'eventCount':
      return [1];
    case 'days':
      return 30;
    case 'boolean':
      return true;
    case 'select':
      return enumValues[0] ?? '';
    case 'multiselect':
      return [];
  }
}
