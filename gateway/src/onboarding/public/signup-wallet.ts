/**
 * Wallet sign-ups: the widget hands out a one-time message (community, website host, nonce, time),
 * the wallet signs it (EIP-191 personal_sign), the gateway checks the signature for the claimed
 * address. Challenges are single use and short-lived; only the message's hash is stored.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { WalletChallenge } from '../../contracts';
import type { Deps } from '../../deps';
import { pendingSignups } from '../../db/schema';
import { normaliseWallet } from '../../audience';
import { badRequest } from '../../errors';
import { once } from '../../lib/once';
import { widgetHost, type LoadedWidget } from './public-widgets';
import { hashSignupToken, oneLine } from './signup-email';
import { subscribe } from './signup-subscribe';

export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
export const SIGNED_UP = 'You are signed up.';
export const SIGNATURE_FAILED = 'The signature could not be verified.';

/** 65-byte signatures (r, s, v) and 64-byte compact ones (EIP-2098). */
const SIGNATURE_PATTERN = /^0x(?:[0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/;

export interface ChallengeParts {
  community: string;
  host: string;
  nonce: string;
  issuedAt: Date;
}

/** The text the wallet shows and signs. */
export function challengeMessage(p: ChallengeParts): string {
  const site = oneLine(p.host) || 'this website';
  return [
    `${site} asks you to sign up to ${oneLine(p.community)} with your wallet.`,
    '',
    'Signing this message proves you own the wallet. It costs nothing and sends no transaction.',
    '',
    `Website: ${site}`,
    `Nonce: ${p.nonce}`,
    `Issued At: ${p.issuedAt.toISOString()}`,
  ].join('\n');
}

/** GET /public/widgets/{id}/challenge. */
export async function issueChallenge(deps: Deps, widget: LoadedWidget, now = new Date()): Promise<WalletChallenge> {
  const nonce = randomBytes(16).toString('hex');
  const message = challengeMessage({
    community: widget.community.title,
    host: widgetHost(widget.url),
    nonce,
    issuedAt: now,
  });
  await deps.db.insert(pendingSignups).values({
    widgetId: widget.id,
    kind: 'wallet_challenge',
    subject: nonce,
    tokenHash: hashSignupToken(message),
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return { message, nonce };
}

/** viem, loaded on the first wallet sign-up rather than when the gateway starts. */
const viem = once(() => import('viem'));

/** Whether `signature` is `address`'s personal_sign of `message` (malformed input is simply false). */
export async function signatureMatches(address: string, message: string, signature: string): Promise<boolean> {
  if (!SIGNATURE_PATTERN.test(signature) || !/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  try {
    const { verifyMessage } = await viem();
    return await verifyMessage({ address: `0x${address.slice(2)}`, message, signature: `0x${signature.slice(2)}` });
  } catch {
    return false;
  }
}

export interface WalletSignup {
  wallet: string;
  message: string;
  signature: string;
}

/**
 * POST /public/widgets/{id}/signups with a wallet: the challenge is used up first (whatever follows,
 * it cannot be tried again), then the signature is checked, then the contact subscribed.
 */
export async function walletSignup(deps: Deps, widget: LoadedWidget, input: WalletSignup): Promise<void> {
  const wallet = normaliseWallet(input.wallet);
  if (!wallet.ok) throw badRequest('Invalid input', { wallet: [wallet.reason] });
  if (!wallet.value) throw badRequest('Invalid input', { wallet: ['Connect a wallet.'] });
  const now = new Date();
  const used = await deps.db
    .update(pendingSignups)
    .set({ usedAt: now })
    .where(
      and(
        eq(pendingSignups.tokenHash, hashSignupToken(input.message)),
        eq(pendingSignups.widgetId, widget.id),
        eq(pendingSignups.kind, 'wallet_challenge'),
        isNull(pendingSignups.usedAt),
        gt(pendingSignups.expiresAt, now),
      ),
    )
    .returning({ id: pendingSignups.id });
  if (used.length !== 1) throw badRequest(SIGNATURE_FAILED);
  if (!(await signatureMatches(wallet.value, input.message, input.signature))) throw badRequest(SIGNATURE_FAILED);
  const identity = { wallet: wallet.value };
  await deps.db.transaction((tx) =>
    subscribe(tx, { tenantId: widget.tenantId, listId: widget.listId, widgetId: widget.id }, identity),
  );
}
