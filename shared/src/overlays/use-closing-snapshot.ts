import { useState } from 'react';

type Snapshot = Record<string, string | boolean | undefined>;

function same(a: Snapshot, b: Snapshot): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/**
 * Dialogs driven by a store often clear their texts the moment they close (`title={req?.title ?? ''}`),
 * which would blank the dialog during its 200 ms leave transition. While open this returns `value`;
 * while closing it returns what was shown when it was last open.
 */
export function useClosingSnapshot<T extends Snapshot>(open: boolean, value: T): T {
  const [kept, setKept] = useState(value);
  if (open && !same(kept, value)) setKept(value);
  return open ? value : kept;
}
