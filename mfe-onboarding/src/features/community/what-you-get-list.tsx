import { Button, TextField } from '@console/shared/ui';
import { COMMUNITY_LIMITS } from '@console/shared/contracts';
import { MAX_WHAT_YOU_GET, addEntry, removeEntry, setEntry } from './what-you-get';

/** 'What you get': one input per item (255 characters) with Remove, and Add; always at least one entry. */
export function WhatYouGetList({
  items,
  onChange,
  error,
  firstId,
}: {
  items: readonly string[];
  onChange: (items: string[]) => void;
  error?: string;
  /** Id of the first item's input (focused on an error). */
  firstId: string;
}) {
  const errorId = `${firstId}-list-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">What you get</legend>
      <ul className="space-y-2">
        {items.map((item, index) => (
          // Items have no identity but their place; the list only grows at the end or shrinks.
          <li key={index} className="flex items-start gap-2">
            <TextField
              id={index === 0 ? firstId : undefined}
              label={`What you get, item ${index + 1}`}
              hideLabel
              containerClassName="flex-1"
              maxLength={COMMUNITY_LIMITS.whatYouGetItem}
              value={item}
              error={index === 0 ? error : undefined}
              onChange={(event) => onChange(setEntry(items, index, event.target.value))}
            />
            <Button
              variant="secondary"
              size="sm"
              className="mt-0.5"
              aria-label={`Remove item ${index + 1}`}
              onClick={() => onChange(removeEntry(items, index))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <Button
        variant="link"
        className="mt-2"
        disabled={items.length >= MAX_WHAT_YOU_GET}
        onClick={() => onChange(addEntry(items))}
      >
        Add item
      </Button>
    </fieldset>
  );
}
