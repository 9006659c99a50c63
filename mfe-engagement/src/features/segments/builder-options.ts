import { createContext, useContext } from 'react';
import type { SegmentField } from '@console/shared/contracts';

export interface BuilderOption {
  value: string;
  label: string;
}

export interface BuilderOptions {
  /** The allowlist of this tenant, by rule field name. */
  fields: ReadonlyMap<string, SegmentField>;
  /** The tenant's lists, for list-membership rules. */
  lists: readonly BuilderOption[];
}

export const BuilderOptionsContext = createContext<BuilderOptions>({ fields: new Map(), lists: [] });

export const useBuilderOptions = () => useContext(BuilderOptionsContext);

/** Capitalised enum values: 'subscribed' -> 'Subscribed', 'api' -> 'API'. */
export function enumLabel(value: string): string {
  if (value === 'api') return 'API';
  return value.charAt(0).toUpperCase() + value.slice(1);
}
