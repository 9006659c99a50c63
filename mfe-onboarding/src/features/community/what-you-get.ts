/** The 'What you get' list: the form always keeps at least one (possibly empty) entry. Pure. */
import { COMMUNITY_LIMITS } from '@console/shared/contracts';

export const MAX_WHAT_YOU_GET = COMMUNITY_LIMITS.whatYouGetItems;

export function withOneEntry(items: readonly string[]): string[] {
  return items.length > 0 ? [...items] : [''];
}

export function addEntry(items: readonly string[]): string[] {
  return items.length >= MAX_WHAT_YOU_GET ? [...items] : [...items, ''];
}

export function removeEntry(items: readonly string[], index: number): string[] {
  return withOneEntry(items.filter((_, i) => i !== index));
}

export function setEntry(items: readonly string[], index: number, value: string): string[] {
  return items.map((item, i) => (i === index ? value : item));
}
