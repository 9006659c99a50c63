/**
 * The `to` of a transactional message: an e-mail address, or a wallet address delivered as campaigns
 * deliver to wallets, at `<checksummed wallet>@WALLET_MAIL_DOMAIN` (docs/campaigns.md).
 */
import { normaliseEmail, normaliseWallet } from '../audience/index';

export type Recipient =
  | { ok: true; address: string; channel: 'email' | 'wallet'; email: string | null; wallet: string | null }
  | { ok: false; error: string };

export const NOT_AN_ADDRESS = 'Give an e-mail address or a wallet address (0x followed by 40 hexadecimal digits).';
export const NO_WALLET_DOMAIN = 'This platform has no mail domain for wallets: send to an e-mail address.';

/** The row's address (lower-cased, as the delivery log stores them) and channel. */
export function recipientOf(raw: string, walletMailDomain: string | null): Recipient {
  const value = raw.trim();
  if (/^0x/i.test(value)) {
    const wallet = normaliseWallet(value);
    if (!wallet.ok || !wallet.value) return { ok: false, error: wallet.ok ? NOT_AN_ADDRESS : wallet.reason };
    if (!walletMailDomain) return { ok: false, error: NO_WALLET_DOMAIN };
    return {
      ok: true,
      address: `${wallet.value}@${walletMailDomain}`.toLowerCase(),
      channel: 'wallet',
      email: null,
      wallet: wallet.value,
    };
  }
  const email = normaliseEmail(value);
  if (!email.ok || !email.value) return { ok: false, error: NOT_AN_ADDRESS };
  return { ok: true, address: email.value, channel: 'email', email: email.value, wallet: null };
}
