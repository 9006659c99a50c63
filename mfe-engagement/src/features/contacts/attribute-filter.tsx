import { SelectField, SELECT_CLASS } from '@console/shared/ui';
import { useState } from 'react';
import type { CustomAttribute } from '@console/shared/contracts';

const INPUT_CLASS =
  'block w-full rounded-control border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset focus:outline-none';

const INPUT_TYPES: Record<CustomAttribute['type'], string> = {
  text: 'text',
  number: 'number',
  date: 'date',
  boolean: 'text',
  wallet: 'text',
};

/** The value box: applied on Enter or when it loses focus (not on every keystroke: each change is a reload). */
function ValueInput({
  attribute,
  value,
  onApply,
}: {
  attribute: Pick<CustomAttribute, 'type' | 'name'>;
  value: string;
  onApply: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  if (attribute.type === 'boolean') {
    return (
      <label className="block">
        <span className="sr-only">Attribute value</span>
        <select value={value} onChange={(event) => onApply(event.target.value)} className={SELECT_CLASS}>
          <option value="">Any value</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      </label>
    );
  }
  return (
    <label className="block">
      <span className="sr-only">Attribute value</span>
      <input
        type={INPUT_TYPES[attribute.type]}
        value={text}
        maxLength={200}
        placeholder="Any value"
        onChange={(event) => setText(event.target.value)}
        onBlur={() => onApply(text.trim())}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onApply(text.trim());
          }
        }}
        className={INPUT_CLASS}
      />
    </label>
  );
}

/** Filter by a custom attribute: has any value, or (with a value) equals it. */
export function AttributeFilter({
  attributes,
  attribute,
  value,
  onAttribute,
  onValue,
}: {
  attributes: readonly CustomAttribute[];
  attribute: string;
  value: string;
  onAttribute: (key: string) => void;
  onValue: (value: string) => void;
}) {
  const chosen = attributes.find((candidate) => candidate.key === attribute);
  return (
    <div className="flex items-end gap-2">
      <SelectField
        label="Custom attribute"
        value={attribute}
        onChange={(event) => onAttribute(event.target.value)}
        disabled={attributes.length === 0}
      >
        <option value="">Any attribute</option>
        {attributes.map((candidate) => (
          <option key={candidate._id} value={candidate.key}>
            {candidate.name}
          </option>
        ))}
      </SelectField>
      {chosen && <ValueInput key={chosen.key} attribute={chosen} value={value} onApply={onValue} />}
    </div>
  );
}
