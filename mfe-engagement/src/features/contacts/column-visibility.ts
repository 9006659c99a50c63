import { useCallback, useState } from 'react';

/** localStorage key of the custom attribute columns shown in the contacts grid. */
export const COLUMNS_STORAGE_KEY = 'contacts.columns';

/** Attribute keys saved as a JSON array of strings; anything else reads as none. */
export function parseVisibleColumns(raw: string | null): string[] {
  if (raw === null) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter((item): item is string => typeof item === 'string' && item.length <= 40))];
  } catch {
    return [];
  }
}

function read(): string[] {
  try {
    return parseVisibleColumns(window.localStorage.getItem(COLUMNS_STORAGE_KEY));
  } catch {
    return [];
  }
}

function write(keys: readonly string[]): void {
  try {
    window.localStorage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(keys));
  } catch {
    // blocked storage: the choice still applies on this page
  }
}

/** Which custom attribute columns show (by attribute key), remembered in localStorage. */
export function useVisibleColumns(): [ReadonlySet<string>, (key: string) => void] {
  const [visible, setVisible] = useState<ReadonlySet<string>>(() => new Set(read()));
  const toggle = useCallback((key: string) => {
    setVisible((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      write([...next]);
      return next;
    });
  }, []);
  return [visible, toggle];
}
