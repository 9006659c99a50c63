import { useId } from 'react';
import { SELECT_CLASS } from '@console/shared/ui';
import { PRIORITY_OPTIONS } from '@console/shared/contracts';

/** A labelled select of the priorities 0 to 100, step 10 (spec section 9). */
export function PrioritySelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const picked = PRIORITY_OPTIONS.find((option) => String(option) === event.target.value);
          if (picked !== undefined) onChange(picked);
        }}
        className={SELECT_CLASS}
      >
        {PRIORITY_OPTIONS.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
