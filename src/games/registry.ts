/** Client faces of every game, by id. */
import type { GameDefinition, GameId, SearchPosition } from './types.js';
import { definition as mnk } from './mnk/index.js';
import { definition as othello } from './othello/index.js';
import { definition as tablut } from './tablut/index.js';
import { definition as hadron } from './hadron/index.js';

export const GAMES: Readonly<Record<GameId, GameDefinition<SearchPosition>>> = {
  mnk: mnk as unknown as GameDefinition<SearchPosition>,
  othello: othello as unknown as GameDefinition<SearchPosition>,
  tablut: tablut as unknown as GameDefinition<SearchPosition>,
  hadron: hadron as unknown as GameDefinition<SearchPosition>,
};

export function findGame(id: string): GameDefinition<SearchPosition> | undefined {
  return Object.prototype.hasOwnProperty.call(GAMES, id) ? GAMES[id as GameId] : undefined;
}
