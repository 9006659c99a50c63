import type { ChangeEvent } from 'react';
import type { ValueEditorProps } from 'react-querybuilder';
import { enumLabel, useBuilderOptions, type BuilderOption } from './builder-options';
import { valueEditorKind } from './operators';
import { INPUT_CLASS } from './input-class';
import { asText, numberOf } from './value-helpers';
import { AmountEditor, EventCountEditor } from './onchain-value-editors';

type Scalar = string | number;
const asScalar = (value: unknown): Scalar => (typeof value === 'number' ? value : asText(value));

/** The two values of 'between' (a stored "a,b" string is read too). */
function asPair(value: unknown): [Scalar, Scalar] {
  const items: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string' && value !== ''
      ? value.split(',')
      : [];
  return [asScalar(items[0]), asScalar(items[1])];
}

const asList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(asText).filter((v) => v !== '')
    : typeof value === 'string' && value !== ''
      ? value.split(',')
      : [];

function MultiSelect({
  label,
  options,
  value,
  onChange,
  disabled,
}: {
  label: string;
  options: readonly BuilderOption[];
  value: unknown;
  onChange: (values: string[]) => void;
  disabled: boolean | undefined;
}) {
  if (options.length === 0) return <span className="text-sm text-slate-500">No lists yet.</span>;
  return (
    <select
      multiple
      aria-label={label}
      size={Math.min(5, options.length)}
      value={asList(value)}
      disabled={disabled}
      onChange={(event) => onChange(Array.from(event.target.selectedOptions, (option) => option.value))}
      className={`${INPUT_CLASS} min-w-48`}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

/**
 * The value of one rule, by the kind of its field and its operator: text, number, date, two of them
 * for 'between', a number of days, yes/no, one enum value or several, lists, a token amount (or two),
 * an event's count and period; nothing for is (not) empty.
 */
export function SegmentValueEditor({ field, operator, value, handleOnChange, disabled }: ValueEditorProps) {
  const { fields, lists } = useBuilderOptions();
  const definition = fields.get(field);
  if (!definition) return null;
  const label = `${definition.label} value`;
  const enumOptions = (definition.values ?? []).map((v) => ({ value: v, label: enumLabel(v) }));

  const kind = valueEditorKind(definition.kind, operator);
  switch (kind) {
    case 'none':
      return null;
    case 'text':
      return (
        <input
          type="text"
          aria-label={label}
          value={asText(value)}
          maxLength={500}
          disabled={disabled}
          placeholder={definition.kind === 'wallet' ? '0x…' : undefined}
          onChange={(event) => handleOnChange(event.target.value)}
          className={`${INPUT_CLASS} min-w-56`}
        />
      );
    case 'number':
      return (
        <input
          type="number"
          aria-label={label}
          value={asText(value)}
          disabled={disabled}
          onChange={(event) => handleOnChange(numberOf(event))}
          className={`${INPUT_CLASS} w-36`}
        />
      );
    case 'date':
      return (
        <input
          type="date"
          aria-label={label}
          value={asText(value)}
          disabled={disabled}
          onChange={(event) => handleOnChange(event.target.value)}
          className={INPUT_CLASS}
        />
      );
    case 'numberRange':
    case 'dateRange': {
      const [from, to] = asPair(value);
      const type = definition.kind === 'date' ? 'date' : 'number';
      const read = (event: ChangeEvent<HTMLInputElement>): Scalar =>
        type === 'number' ? numberOf(event) : event.target.value;
      return (
        <span className="inline-flex items-center gap-2">
          <input
            type={type}
            aria-label={`${definition.label} from`}
            value={asText(from)}
            disabled={disabled}
            onChange={(event) => handleOnChange([read(event), to])}
            className={`${INPUT_CLASS} w-36`}
          />
          <span className="text-sm text-slate-500">and</span>
          <input
            type={type}
            aria-label={`${definition.label} to`}
            value={asText(to)}
            disabled={disabled}
            onChange={(event) => handleOnChange([from, read(event)])}
            className={`${INPUT_CLASS} w-36`}
          />
        </span>
      );
    }
    case 'days':
      return (
        <span className="inline-flex items-center gap-2">
          <input
            type="number"
            min={1}
            max={36500}
            step={1}
            aria-label="Number of days"
            value={asText(value)}
            disabled={disabled}
            onChange={(event) => handleOnChange(numberOf(event))}
            className={`${INPUT_CLASS} w-24`}
          />
          <span className="text-sm text-slate-500">days</span>
        </span>
      );
    case 'boolean':
      return (
        <select
          aria-label={label}
          value={value === false || value === 'false' ? 'false' : 'true'}
          disabled={disabled}
          onChange={(event) => handleOnChange(event.target.value === 'true')}
          className={`${INPUT_CLASS} pr-8`}
        >
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      );
    case 'select':
      return (
        <select
          aria-label={label}
          value={asText(value)}
          disabled={disabled}
          onChange={(event) => handleOnChange(event.target.value)}
          className={`${INPUT_CLASS} pr-8`}
        >
          {enumOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
    case 'amount':
    case 'amountRange':
      return (
        <AmountEditor
          label={definition.label}
          token={definition.token ?? null}
          range={kind === 'amountRange'}
          value={value}
          onChange={handleOnChange}
          disabled={disabled}
        />
      );
    case 'eventCount':
      return <EventCountEditor label={definition.label} value={value} onChange={handleOnChange} disabled={disabled} />;
    case 'multiselect':
      return (
        <MultiSelect
          label={label}
          options={definition.kind === 'list' ? lists : enumOptions}
          value={value}
          onChange={handleOnChange}
          disabled={disabled}
        />
      );
  }
}
