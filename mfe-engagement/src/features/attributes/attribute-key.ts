import { ATTRIBUTE_KEY_PATTERN, RESERVED_ATTRIBUTE_KEYS } from '@console/shared/contracts';

const MAX_KEY_LENGTH = 40;

/**
 * The key a new attribute gets from its name until the user edits the key: lower-case ASCII,
 * words joined by underscores, starting with a letter, at most 40 characters.
 * 'Discord Handle' -> 'discord_handle', 'Größe (cm)' -> 'grosse_cm', '2024 NFT' -> 'attr_2024_nft'.
 */
export function attributeKeyFromName(name: string): string {
  const ascii = name
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  let key = ascii.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (key !== '' && !/^[a-z]/.test(key)) key = `attr_${key}`;
  return key.slice(0, MAX_KEY_LENGTH).replace(/_+$/, '');
}

/** Why a key cannot be used, or null. The gateway checks the same (and uniqueness). */
export function attributeKeyProblem(key: string): string | null {
  if (key === '') return 'Enter a key.';
  if (!ATTRIBUTE_KEY_PATTERN.test(key)) {
    return 'Use lower-case letters, digits and underscores, starting with a letter (at most 40).';
  }
  if ((RESERVED_ATTRIBUTE_KEYS as readonly string[]).includes(key)) return 'This key belongs to a contact field.';
  return null;
}
