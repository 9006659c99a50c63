/**
 * The e-mails and wallets an import has already met in its file, each with the row that claimed it,
 * for "Duplicate of row N in this file." A million rows must not cost hundreds of megabytes of
 * strings, so values are kept as 96-bit fingerprints in typed arrays (16 bytes a slot, off the JS heap):
 * about 40 MB for a million e-mails plus a million wallets.
 *
 * Two different values share a fingerprint with probability about n² / 2^97 (1e-17 for a million
 * values): far below any other failure, and the worst outcome is one row reported as a duplicate.
 */

const EMPTY = 0;
const MAX_LOAD = 0.6;

/** Three 32-bit hashes of a string in one pass (two murmur-style lanes and FNV-1a). */
function fingerprint(value: string): [number, number, number] {
  let h1 = 0xdeadbeef ^ value.length;
  let h2 = 0x41c6ce57 ^ value.length;
  let h3 = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
    h3 = Math.imul(h3 ^ c, 16777619);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  h3 ^= h3 >>> 15;
  h3 = Math.imul(h3, 0x2c1b3c6d);
  h3 ^= h3 >>> 12;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0];
}

/** Values → the 1-based row that claimed them first. Rows must be >= 1. */
export class SeenValues {
  private capacity: number;
  private size = 0;
  /** Per slot: fingerprint lanes 0..2, then the row (0 = empty). */
  private slots: Uint32Array;

  constructor(initialCapacity = 1 << 14) {
    this.capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.slots = new Uint32Array(this.capacity * 4);
  }

  get count(): number {
    return this.size;
  }

  /** The row that claimed `value`, or 0. */
  rowOf(value: string): number {
    const [a, b, c] = fingerprint(value);
    const mask = this.capacity - 1;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const at = i * 4;
      const row = this.slots[at + 3] ?? EMPTY;
      if (row === EMPTY) return 0;
      if (this.slots[at] === a && this.slots[at + 1] === b && this.slots[at + 2] === c) return row;
    }
  }

  /** Claims `value` for `row` unless already claimed; returns the claiming row (this one when new). */
  claim(value: string, row: number): number {
    if ((this.size + 1) / this.capacity > MAX_LOAD) this.grow();
    return this.insert(fingerprint(value), row);
  }

  private insert([a, b, c]: [number, number, number], row: number): number {
    const mask = this.capacity - 1;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const at = i * 4;
      const existing = this.slots[at + 3] ?? EMPTY;
      if (existing === EMPTY) {
        this.slots[at] = a;
        this.slots[at + 1] = b;
        this.slots[at + 2] = c;
        this.slots[at + 3] = row;
        this.size++;
        return row;
      }
      if (this.slots[at] === a && this.slots[at + 1] === b && this.slots[at + 2] === c) return existing;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.capacity *= 2;
    this.slots = new Uint32Array(this.capacity * 4);
    this.size = 0;
    for (let at = 0; at < old.length; at += 4) {
      const row = old[at + 3] ?? EMPTY;
      if (row !== EMPTY) this.insert([old[at] ?? 0, old[at + 1] ?? 0, old[at + 2] ?? 0], row);
    }
  }
}
