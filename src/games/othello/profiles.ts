/**
 * Evaluation profiles selectable through EngineOptions.profile:
 *  - 'default': the fitted pattern tables (pattern-eval.ts, weights in pattern-weights.json from
 *    tools/othello-data.ts and tools/othello-fit.ts); 92% against 'classic' at 100 ms a move
 *    (docs/othello-strength.md);
 *  - 'pattern': the same evaluation under its descriptive name;
 *  - 'classic': the hand-set phase-weighted feature evaluation (classic-eval.ts: mobility, potential
 *    mobility, frontier, corners, X/C squares, edge stability, discs, parity), the default until
 *    2026-11-26;
 *  - 'seed': the seed engine's single weight table, the floor the arena measures against.
 * Unknown names fall back to 'default'.
 */
import { FeatureEvaluator } from './classic-eval.js';
import { PatternEvaluator } from './pattern-eval.js';
import { shippedPatternTables } from './pattern-weights.js';
import type { Evaluator } from './position.js';
import { SeedEvaluator } from './seed-eval.js';

export const PROFILES = ['default', 'classic', 'pattern', 'seed'] as const;
type ProfileName = (typeof PROFILES)[number];

const cache = new Map<ProfileName, Evaluator>();

function build(name: ProfileName): Evaluator {
  if (name === 'seed') return new SeedEvaluator();
  if (name === 'classic') return new FeatureEvaluator();
  return new PatternEvaluator(shippedPatternTables());
}

function known(profile: string | undefined): ProfileName {
  return (PROFILES as readonly string[]).includes(profile ?? '') ? (profile as ProfileName) : 'default';
}

export function evaluatorFor(profile: string | undefined): Evaluator {
  const name = known(profile);
  let evaluator = cache.get(name);
  if (evaluator === undefined) {
    evaluator = build(name);
    cache.set(name, evaluator);
  }
  return evaluator;
}
