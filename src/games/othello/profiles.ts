/**
 * Evaluation profiles selectable through EngineOptions.profile:
 *  - 'default': the fitted pattern evaluation (the strongest);
 *  - 'classic': the hand-set feature evaluation the pattern weights were bootstrapped from;
 *  - 'seed': the seed engine's single weight table, the floor the arena measures against.
 * Unknown names fall back to 'default'.
 */
import { FeatureEvaluator } from './classic-eval.js';
import { PatternEvaluator } from './pattern-eval.js';
import { patternWeights } from './pattern-weights.js';
import type { Evaluator } from './position.js';
import { SeedEvaluator } from './seed-eval.js';

export const PROFILES = ['default', 'classic', 'seed'] as const;

const cache = new Map<string, Evaluator>();

function build(name: string): Evaluator {
  if (name === 'seed') return new SeedEvaluator();
  if (name === 'classic') return new FeatureEvaluator();
  const weights = patternWeights();
  return weights === null ? new FeatureEvaluator() : new PatternEvaluator(weights);
}

export function evaluatorFor(profile: string | undefined): Evaluator {
  const name = profile === 'seed' || profile === 'classic' ? profile : 'default';
  let evaluator = cache.get(name);
  if (evaluator === undefined) {
    evaluator = build(name);
    cache.set(name, evaluator);
  }
  return evaluator;
}
