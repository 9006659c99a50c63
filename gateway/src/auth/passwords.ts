import { randomBytes } from 'node:crypto';
import { hash, type Options, verify } from '@node-rs/argon2';

// argon2id (Algorithm.Argon2id = 2; a const enum we cannot import under isolatedModules) with the
// OWASP-recommended cost: 19 MiB, 2 passes, 1 lane.
const OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Spend the same time as a real check when the account does not exist, so an unknown e-mail and
 * a wrong password cannot be told apart by timing.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
