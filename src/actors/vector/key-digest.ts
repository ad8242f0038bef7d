/**
 * An order-independent digest of a set of fact seqs, updated in O(1) per key added or removed.
 *
 * Why: the index manifest records the digest of the keys the saved index holds; at load, the worker
 * computes the digest of the keys SQLite says should be indexed. Equal digests mean the saved index is
 * not stale; unequal means "rebuild". The digest is a count plus two sums (mod 2^32) of independent
 * 32-bit mixes of each key, i.e. a multiset hash: adding and removing commute, so the worker can keep it
 * current while it upserts and removes, and SQLite's side needs only one pass over the seqs.
 * Not cryptographic: it guards against drift, not against an adversary (the file's sha256 guards bytes).
 */
export class KeyDigest {
  private n = 0;
  private a = 0;
  private b = 0;

  get count(): number {
    return this.n;
  }

  add(seq: number): void {
    this.n++;
    this.a = (this.a + mix(seq, 0x9e3779b9)) >>> 0;
    this.b = (this.b + mix(seq, 0x7f4a7c15)) >>> 0;
  }

  remove(seq: number): void {
    this.n--;
    this.a = (this.a - mix(seq, 0x9e3779b9)) >>> 0;
    this.b = (this.b - mix(seq, 0x7f4a7c15)) >>> 0;
  }

  /** A stable text form, stored in the manifest. */
  toString(): string {
    return `k1:${this.n}:${hex(this.a)}${hex(this.b)}`;
  }

  static of(seqs: Iterable<number>): KeyDigest {
    const d = new KeyDigest();
    for (const s of seqs) d.add(s);
    return d;
  }
}

const hex = (x: number): string => x.toString(16).padStart(8, '0');

/** murmur3's 32-bit finaliser. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Mix a (up to 53-bit) integer key with a seed into 32 bits. */
function mix(seq: number, seed: number): number {
  const lo = seq >>> 0;
  const hi = Math.floor(seq / 4294967296) >>> 0;
  return fmix32((fmix32(lo ^ seed) + Math.imul(hi ^ seed, 0x27d4eb2f)) >>> 0);
}
