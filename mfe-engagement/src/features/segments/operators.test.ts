import { ONCHAIN_FIRST_SEEN_FIELD, OPERATORS_BY_KIND, type SegmentFieldKind } from '@console/shared/contracts';
import { defaultRuleValue, operatorOptions, valueEditorKind } from './operators';

describe('operatorOptions', () => {
  it.each<[SegmentFieldKind, string[]]>([
    ['enum', ['is', 'is not', 'is one of', 'is not one of']],
    ['list', ['is member of any of', 'is member of none of']],
    ['text', ['is', 'is not', 'contains', 'does not contain', 'starts with', 'ends with', 'is empty', 'is not empty']],
    ['wallet', ['is', 'is not', 'starts with', 'is empty', 'is not empty']],
    [
      'number',
      [
        'is',
        'is not',
        'is less than',
        'is at most',
        'is greater than',
        'is at least',
        'is between',
        'is empty',
        'is not empty',
      ],
    ],
    ['date', ['is before', 'is after', 'is between', 'within the last N days', 'is empty', 'is not empty']],
    ['boolean', ['is', 'is empty', 'is not empty']],
    ['token', ['holds at least', 'holds less than', 'holds between']],
    ['event', ['at least', 'fewer than']],
  ])('%s offers exactly its allowlist', (kind, labels) => {
    const options = operatorOptions(kind);
    expect(options.map((o) => o.name)).toEqual(OPERATORS_BY_KIND[kind]);
    expect(options.map((o) => o.label)).toEqual(labels);
  });

  it('reads "First seen on chain is empty" as never', () => {
    expect(operatorOptions('date', ONCHAIN_FIRST_SEEN_FIELD).map((o) => o.label)).toEqual([
      'is before',
      'is after',
      'is between',
      'within the last N days',
      'never',
      'at any time',
    ]);
  });
});

describe('valueEditorKind', () => {
  it.each<[SegmentFieldKind, string, string]>([
    ['text', '=', 'text'],
    ['text', 'null', 'none'],
    ['text', 'lastDays', 'none'],
    ['wallet', 'beginsWith', 'text'],
    ['number', '>=', 'number'],
    ['number', 'between', 'numberRange'],
    ['date', '<', 'date'],
    ['date', 'between', 'dateRange'],
    ['date', 'lastDays', 'days'],
    ['date', 'notNull', 'none'],
    ['boolean', '=', 'boolean'],
    ['enum', '=', 'select'],
    ['enum', 'notIn', 'multiselect'],
    ['enum', 'contains', 'none'],
    ['list', 'in', 'multiselect'],
    ['token', '>=', 'amount'],
    ['token', '<', 'amount'],
    ['token', 'between', 'amountRange'],
    ['token', '=', 'none'],
    ['event', '>=', 'eventCount'],
    ['event', '<', 'eventCount'],
    ['event', 'between', 'none'],
  ])('%s %s -> %s', (kind, operator, editor) => {
    expect(valueEditorKind(kind, operator)).toBe(editor);
  });
});

describe('defaultRuleValue', () => {
  it.each<[SegmentFieldKind, string, unknown]>([
    ['enum', '=', 'subscribed'],
    ['enum', 'in', []],
    ['list', 'notIn', []],
    ['number', 'between', ['', '']],
    ['date', 'lastDays', 30],
    ['boolean', '=', true],
    ['text', 'contains', ''],
    ['text', 'null', ''],
    ['token', '>=', ''],
    ['token', 'between', ['', '']],
    ['event', '>=', [1]],
  ])('%s %s -> %p', (kind, operator, value) => {
    expect(defaultRuleValue(kind, operator, ['subscribed', 'unsubscribed'])).toEqual(value);
  });
});
