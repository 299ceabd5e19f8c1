/** Engine faces of every game, looked up by workers. */
import type { GameEngine, GameId, SearchPosition } from './types.js';
import { engine as mnk } from './mnk/index.js';
import { engine as othello } from './othello/index.js';
import { engine as tablut } from './tablut/index.js';
import { engine as hadron } from './hadron/index.js';

export const ENGINES: Record<GameId, GameEngine<SearchPosition>> = {
  mnk: mnk as unknown as GameEngine<SearchPosition>,
  othello: othello as unknown as GameEngine<SearchPosition>,
  tablut: tablut as unknown as GameEngine<SearchPosition>,
  hadron: hadron as unknown as GameEngine<SearchPosition>,
};
