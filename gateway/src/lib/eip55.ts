/**
 * EIP-55 wallet checksums. Keccak-256 from hash-wasm (WebAssembly), several times faster per address
 * than viem's getAddress, which matters when an import checks a million wallets (bench/README.md,
 * "Wallet checksums").
 */
import { createKeccak } from 'hash-wasm';

const keccak = await createKeccak(256);

/** The checksummed form of a 0x-prefixed, 40-hex-digit address (any case in, EIP-55 out). */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  keccak.init();
  keccak.update(hex);
  const hash = keccak.digest('binary');
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 15;
    const char = hex[i] ?? '';
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out;
}
