/**
 * Transposition table: one Int32Array of two-slot buckets, so a table is one allocation and a lookup
 * touches one cache line. Slot layout (4 int32):
 *   [0] verification key: hashHi ^ [1] ^ [2] ^ [3]   [1] move (-1 = none)   [2] score (ply-independent, see toTT)
 *   [3] meta: depth (8 bits) | bound (2 bits) << 8 | exact-subtree flag << 10 | age (6 bits) << 11
 * The key is stored XORed with the entry's data (lock-free hashing): several threads may share one table
 * in a SharedArrayBuffer (Lazy SMP) and a slot torn by concurrent writers fails verification, so it reads
 * as a miss instead of a wrong entry. probe() reads each word once and keeps the verified copy, which the
 * accessors return. Alone on a table this is the same table as before (same hits, same node counts).
 * Replacement: a matching slot is refreshed; otherwise the slot from an older search, else the
 * shallower one, gives way (depth-preferred with aging).
 */
import { PROVEN_THRESHOLD } from './score.js';

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

const SLOT_INTS = 4;
const BUCKET_INTS = 2 * SLOT_INTS;
const BUCKET_BYTES = BUCKET_INTS * 4;
const AGE_MASK = 63;
const EMPTY_META = 0;

export class TranspositionTable {
  readonly data: Int32Array;
  readonly bucketMask: number;
  private ageNow = 1;
  /** How many times clear() ran: a table that mirrors this one (a search kernel's) clears itself when it changes. */
  clears = 0;

  /** The verified copy of the last entry probe() found. */
  private hitMove = -1;
  private hitScore = 0;
  private hitMeta = EMPTY_META;

  /**
   * sizeMb: the table's size (rounded down to a power of two of buckets). shared: a buffer from
   * sharedTableBuffer() to work on (other threads may use it at the same time) instead of a table of its own,
   * or a zeroed view of a power of two of buckets in another memory (a search kernel's, which reads it too).
   */
  constructor(sizeMb: number, shared?: SharedArrayBuffer | Int32Array) {
    if (shared !== undefined) {
      const buckets = shared.byteLength / BUCKET_BYTES;
      if (!Number.isInteger(buckets) || buckets < 1 || (buckets & (buckets - 1)) !== 0) throw new Error('shared table: not a power of two of buckets');
      this.data = shared instanceof Int32Array ? shared : new Int32Array(shared);
      this.bucketMask = buckets - 1;
      return;
    }
    const buckets = tableBuckets(sizeMb);
    this.data = new Int32Array(buckets * BUCKET_INTS);
    // Touch every page now: the process's RSS then includes the whole table from the first search on,
    // instead of creeping up for many minutes as the table fills (which reads like a leak).
    this.data.fill(0);
    this.bucketMask = buckets - 1;
  }

  get sizeBytes(): number {
    return this.data.byteLength;
  }

  clear(): void {
    this.data.fill(0);
    this.ageNow = 1;
    this.clears++;
  }

  /** Starts a new search: entries of earlier searches become first candidates for replacement. */
  newSearch(): void {
    this.ageNow = this.ageNow >= AGE_MASK ? 1 : this.ageNow + 1;
  }

  /** The current search's age (stored in each entry's meta word). */
  get age(): number {
    return this.ageNow;
  }

  /**
   * Takes another view's age of the same shared table (a Lazy SMP helper joining a table that lives
   * across searches), so that its next newSearch() ages entries as the main search's does.
   */
  followAge(age: number): void {
    this.ageNow = Math.max(1, Math.min(AGE_MASK, Math.floor(age)));
  }

  /**
   * Index of the slot holding this position, or -1. Each word is read once; an entry whose words do
   * not verify against the key (another position, or a slot torn by concurrent writers) is a miss.
   * The accessors below read the verified copy of the last hit (call them right after probe()).
   */
  probe(hashLo: number, hashHi: number): number {
    const base = (hashLo & this.bucketMask) * BUCKET_INTS;
    const d = this.data;
    for (let slot = base; slot <= base + SLOT_INTS; slot += SLOT_INTS) {
      const meta = d[slot + 3];
      if (meta === EMPTY_META) continue;
      const move = d[slot + 1];
      const score = d[slot + 2];
      if ((d[slot] ^ move ^ score ^ meta) !== hashHi) continue;
      this.hitMove = move;
      this.hitScore = score;
      this.hitMeta = meta;
      return slot;
    }
    return -1;
  }

  move(_slot: number): number {
    return this.hitMove;
  }

  /** Stored score converted back to the probing node's ply. */
  score(_slot: number, ply: number): number {
    return fromTT(this.hitScore, ply);
  }

  depth(_slot: number): number {
    return this.hitMeta & 255;
  }

  bound(_slot: number): number {
    return (this.hitMeta >>> 8) & 3;
  }

  /** True when the stored value came from a subtree whose every leaf was a finished game. */
  exactSubtree(_slot: number): boolean {
    return ((this.hitMeta >>> 10) & 1) === 1;
  }

  store(
    hashLo: number,
    hashHi: number,
    depth: number,
    bound: number,
    score: number,
    ply: number,
    move: number,
    exactSubtree: boolean,
  ): void {
    const d = this.data;
    const base = (hashLo & this.bucketMask) * BUCKET_INTS;
    const other = base + SLOT_INTS;
    let slot: number;
    if (verifies(d, base, hashHi)) slot = base;
    else if (verifies(d, other, hashHi)) slot = other;
    else {
      const metaA = d[base + 3];
      const metaB = d[other + 3];
      if (metaA === EMPTY_META) slot = base;
      else if (metaB === EMPTY_META) slot = other;
      else {
        const staleA = ((metaA >>> 11) & AGE_MASK) !== this.ageNow;
        const staleB = ((metaB >>> 11) & AGE_MASK) !== this.ageNow;
        if (staleA !== staleB) slot = staleA ? base : other;
        else slot = (metaA & 255) <= (metaB & 255) ? base : other;
      }
    }
    const meta = d[slot + 3];
    const oldMove = d[slot + 1];
    const sameKey = verifies(d, slot, hashHi);
    // Keep a deeper entry of this search over a shallower bound for the same position.
    if (sameKey && ((meta >>> 11) & AGE_MASK) === this.ageNow && (meta & 255) > depth + 2 && bound !== BOUND_EXACT) {
      if (move >= 0 && oldMove < 0) {
        d[slot + 1] = move;
        d[slot] = hashHi ^ move ^ d[slot + 2] ^ meta;
      }
      return;
    }
    const newMove = move >= 0 || !sameKey ? move : oldMove;
    const newScore = toTT(score, ply);
    const newMeta = (Math.min(depth, 255) & 255) | (bound << 8) | ((exactSubtree ? 1 : 0) << 10) | (this.ageNow << 11);
    d[slot] = hashHi ^ newMove ^ newScore ^ newMeta;
    d[slot + 1] = newMove;
    d[slot + 2] = newScore;
    d[slot + 3] = newMeta;
  }

  /** Share of a sample of slots used by the current search, in permille (UCI's hashfull). */
  hashfull(): number {
    let used = 0;
    const sample = Math.min(1000, this.data.length / SLOT_INTS);
    for (let i = 0; i < sample; i++) {
      const meta = this.data[i * SLOT_INTS + 3];
      if (meta !== EMPTY_META && ((meta >>> 11) & AGE_MASK) === this.ageNow) used++;
    }
    return Math.round((used * 1000) / sample);
  }
}

function verifies(d: Int32Array, slot: number, hashHi: number): boolean {
  const meta = d[slot + 3];
  return meta !== EMPTY_META && (d[slot] ^ d[slot + 1] ^ d[slot + 2] ^ meta) === hashHi;
}

function tableBuckets(sizeMb: number): number {
  const wanted = Math.max(1, Math.floor((Math.max(sizeMb, 0.0625) * 1024 * 1024) / BUCKET_BYTES));
  let buckets = 1;
  while (buckets * 2 <= wanted) buckets *= 2;
  return buckets;
}

/** A zeroed table of about sizeMb in shared memory, for the threads of one Lazy SMP search. */
export function sharedTableBuffer(sizeMb: number): SharedArrayBuffer {
  return new SharedArrayBuffer(tableBuckets(sizeMb) * BUCKET_BYTES);
}

/**
 * A 32-bit salt for the transposition keys of one game and board shape (FNV-1a over the game's name
 * and the shape's numbers). Searcher XORs saltLo / saltHi into every key: a bijection on buckets, so
 * node counts of one game are unchanged, while positions of different games or shapes (an empty
 * board's key is often the same) can no longer share a key.
 */
export function keySalt(game: string, ...shape: number[]): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < game.length; i++) h = Math.imul(h ^ game.charCodeAt(i), 0x01000193);
  for (const n of shape) {
    h = Math.imul(h ^ (n & 0xffff), 0x01000193);
    h = Math.imul(h ^ (n >>> 16), 0x01000193);
  }
  return h | 0;
}

/** The two key halves a salt is XORed into (its high half well mixed, not a copy of the low one). */
export function saltLo(salt: number): number {
  return salt | 0;
}

export function saltHi(salt: number): number {
  let z = Math.imul(salt ^ (salt >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) | 0;
}

/** Proven scores are stored relative to the node, so a transposition at another ply reads them right. */
function toTT(score: number, ply: number): number {
  if (score >= PROVEN_THRESHOLD) return score + ply;
  if (score <= -PROVEN_THRESHOLD) return score - ply;
  return score;
}

function fromTT(score: number, ply: number): number {
  if (score >= PROVEN_THRESHOLD) return score - ply;
  if (score <= -PROVEN_THRESHOLD) return score + ply;
  return score;
}
