/**
 * Compact text encoding of the pattern-evaluation weights, so the fitted tables ship as a
 * TypeScript module (the build copies only compiled TypeScript).
 *
 * Only one configuration of each tied pair is stored (the smaller index, see partnerTable), as a
 * signed byte in units of `unit` evaluation units; runs of zeros (configurations never seen in
 * training) are written as a 0 byte followed by the run length (1..255). The global-feature
 * weights are few and kept as plain numbers.
 */
import { PHASE_BLOCK, PHASE_COUNT, LINEAR_COUNT } from './pattern-eval.js';
import { PATTERN_BLOCK, PATTERN_LENGTHS, PATTERN_OFFSETS, partnerTable } from './patterns.js';

export interface EncodedWeights {
  /** Evaluation units per stored step. */
  readonly unit: number;
  /** Base64 of the run-length-coded signed bytes, phase by phase, pattern by pattern. */
  readonly patterns: string;
  /** Global-feature weights per phase, in evaluation units. */
  readonly linear: readonly (readonly number[])[];
}

const PARTNERS: Int32Array[] = PATTERN_LENGTHS.map((_, p) => partnerTable(p));

export function encodeWeights(weights: Float32Array, unit: number): EncodedWeights {
  const bytes: number[] = [];
  let zeros = 0;
  const flush = (): void => {
    while (zeros > 0) {
      const run = Math.min(255, zeros);
      bytes.push(0, run);
      zeros -= run;
    }
  };
  const linear: number[][] = [];
  for (let phase = 0; phase < PHASE_COUNT; phase++) {
    const base = phase * PHASE_BLOCK;
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const partner = PARTNERS[p];
      for (let i = 0; i < partner.length; i++) {
        if (partner[i] < i) continue;
        const q = Math.max(-127, Math.min(127, Math.round(weights[base + PATTERN_OFFSETS[p] + i] / unit)));
        if (q === 0) zeros++;
        else {
          flush();
          bytes.push(q & 0xff);
        }
      }
    }
    const row: number[] = [];
    for (let k = 0; k < LINEAR_COUNT; k++) row.push(Math.round(weights[base + PATTERN_BLOCK + k] * 100) / 100);
    linear.push(row);
  }
  flush();
  return { unit, patterns: Buffer.from(bytes).toString('base64'), linear };
}

export function decodeWeights(encoded: EncodedWeights): Float32Array {
  const bytes = Uint8Array.from(atob(encoded.patterns), (c) => c.charCodeAt(0));
  const out = new Float32Array(PHASE_COUNT * PHASE_BLOCK);
  let at = 0;
  let zeros = 0;
  const next = (): number => {
    if (zeros > 0) {
      zeros--;
      return 0;
    }
    const b = bytes[at++];
    if (b === 0) {
      zeros = bytes[at++] - 1;
      return 0;
    }
    return b > 127 ? b - 256 : b;
  };
  for (let phase = 0; phase < PHASE_COUNT; phase++) {
    const base = phase * PHASE_BLOCK;
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const partner = PARTNERS[p];
      const offset = base + PATTERN_OFFSETS[p];
      for (let i = 0; i < partner.length; i++) {
        if (partner[i] < i) out[offset + i] = out[offset + partner[i]];
        else out[offset + i] = next() * encoded.unit;
      }
    }
    for (let k = 0; k < LINEAR_COUNT; k++) out[base + PATTERN_BLOCK + k] = encoded.linear[phase][k];
  }
  return out;
}
