import { TextField, SelectField } from '@console/shared/ui';
import type { CustomAttribute } from '@console/shared/contracts';
import { ATTRIBUTE_ERROR_PREFIX } from './contact-form';

/** One input per custom attribute, by type: text, number, date, yes/no, wallet address. */
export function AttributeInput({
  attribute,
  value,
  error,
  onChange,
}: {
  attribute: Pick<CustomAttribute, 'key' | 'name' | 'type'>;
  value: string;
  error: string | undefined;
  onChange: (key: string, value: string) => void;
}) {
  const name = `${ATTRIBUTE_ERROR_PREFIX}${attribute.key}`;
  if (attribute.type === 'boolean') {
    return (
      <SelectField
        label={attribute.name}
        name={name}
        value={value}
        error={error}
        onChange={(event) => onChange(attribute.key, event.target.value)}
      >
        <option value="">Not set</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </SelectField>
    );
  }
  const byType = {
    text: { type: 'text', maxLength: 500 },
    number: { type: 'number', step: 'any', inputMode: 'decimal' as const },
    date: { type: 'date' },
    wallet: { type: 'text', maxLength: 64, placeholder: '0x…', spellCheck: false, autoComplete: 'off' },
  }[attribute.type];
  return (
    <TextField
      label={attribute.name}
      name={name}
      value={value}
      error={error}
      onChange={(event) => onChange(attribute.key, event.target.value)}
      {...byType}
    />
  );
}
