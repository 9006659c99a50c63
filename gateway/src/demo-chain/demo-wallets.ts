import type { Address } from 'viem';
import { DEMO_CONTACTS, demoContact } from '../audience/index';

/** The wallets of Acme DAO's demo contacts (the seed's audience), in seed order. */
export function demoWallets(): Address[] {
  const out: Address[] = [];
  for (let i = 1; i <= DEMO_CONTACTS; i += 1) {
    const wallet = demoContact(i).wallet;
    if (wallet) out.push(wallet as Address);
  }
  return out;
}
