/**
 * Evaluation profiles (EngineOptions.profile): 'default' is the strongest, 'seed' mimics the snAI
 * student engine. Unknown names fall back to the default.
 */
import { DefaultEvaluator } from './evaluation.js';
import type { TablutPosition } from './position.js';
import { SeedEvaluator } from './seed-eval.js';

export const PROFILE_NAMES = ['default', 'seed'] as const;

/** Gives a position its evaluator and search hooks for a profile; rootSide becomes the side to move. */
export function attachProfile(pos: TablutPosition, profile: string | undefined): void {
  pos.evaluator = profile === 'seed' ? new SeedEvaluator() : new DefaultEvaluator();
  pos.rootSide = pos.side;
}
