/** Engine faces of every game, looked up by workers. */
import type { GameEngine, GameId, SearchPosition } from './types.js';
import { engine as mnk } from './mnk/engine.js';
import { engine as othello } from './othello/engine.js';
import { engine as tablut } from './tablut/engine.js';
import { engine as hadron } from './hadron/engine.js';

export const ENGINES: Record<GameId, GameEngine<SearchPosition>> = {
  mnk: mnk as unknown as GameEngine<SearchPosition>,
  othello: othello as unknown as GameEngine<SearchPosition>,
  tablut: tablut as unknown as GameEngine<SearchPosition>,
  hadron: hadron as unknown as GameEngine<SearchPosition>,
};

/** Builds every engine's lazily loaded tables (weights files), so a damaged one fails here, at start-up. */
export function prepareEngines(): void {
  for (const engine of Object.values(ENGINES)) engine.prepare?.();
}
