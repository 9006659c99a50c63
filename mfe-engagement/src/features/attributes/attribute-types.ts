import type { AttributeType } from '@console/shared/contracts';

/** How each attribute type is named in the console, and what it holds. */
export const ATTRIBUTE_TYPE_INFO: Record<AttributeType, { label: string; help: string }> = {
  text: { label: 'Text', help: 'Any text, such as a city, a Discord handle or a membership tier.' },
  number: { label: 'Number', help: 'A number, such as a token balance, a score or a count of mints.' },
  date: { label: 'Date', help: 'A calendar date (YYYY-MM-DD), such as a first purchase or a renewal date.' },
  boolean: { label: 'Yes / no', help: 'True or false, such as "holds the genesis NFT" or "joined the Discord".' },
  wallet: {
    label: 'Wallet address',
    help: 'An Ethereum address (0x and 40 hex digits), stored with its EIP-55 checksum, such as a second wallet.',
  },
};
