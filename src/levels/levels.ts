/**
 * Playing levels: 1 (weakest) to TOP_LEVEL (the full engine, today's answers), the same range in every
 * game. Below the top a level is a row of settings.json: a node limit (reproducible with a seed, and a
 * fraction of any budget), multi-PV candidates and a temperature for choosing among them (play.ts), and
 * in Othello an exact endgame bounded by empty squares.
 * What each level is worth is measured by `npm run levels-calibrate` into elo.json (docs/levels.md).
 */
import { GAME_IDS, type GameId } from '../games/types.js';
import settingsData from './settings.json' with { type: 'json' };
import eloData from './elo.json' with { type: 'json' };

export interface LevelSetting {
  /** Node limit of the level's search. */
  readonly nodes: number;
  /** Deepest iteration (0: no depth limit). */
  readonly depth: number;
  /** Multi-PV candidates the move is chosen among. */
  readonly lines: number;
  /** In win probability: a candidate losing `loss` against the best weighs exp(-loss / temperature). */
  readonly temperature: number;
  /** Never a move that lets the opponent win at once (when another does not); always a win in one. */
  readonly guard: boolean;
  /**
   * The exact endgame at or below this many empty squares (games whose engine has `solveWithin`: Othello;
   * absent or 0: never). The solver's best move is played, so the level stays reproducible.
   */
  readonly exactEmpties?: number;
}

/** The most empties a level solves exactly: a few milliseconds to a few tens (the full engine goes further by the clock). */
export const MAX_LEVEL_EXACT_EMPTIES = 16;

export interface SettingsFile {
  readonly games: Readonly<Record<string, readonly LevelSetting[]>>;
}

export function checkedSettings(file: SettingsFile): Readonly<Record<GameId, readonly LevelSetting[]>> {
  const out: Partial<Record<GameId, readonly LevelSetting[]>> = {};
  let count: number | undefined;
  for (const id of GAME_IDS) {
    const rows = file.games[id];
    if (!Array.isArray(rows) || rows.length === 0) throw new Error(`src/levels/settings.json: games.${id} must list the levels below the top`);
    if (count !== undefined && rows.length !== count) throw new Error(`src/levels/settings.json: every game must have ${count} levels below the top`);
    count = rows.length;
    rows.forEach((row, i) => {
      const ok =
        Number.isInteger(row.nodes) && row.nodes > 0 && Number.isInteger(row.depth) && row.depth >= 0 && Number.isInteger(row.lines) &&
        row.lines >= 1 && typeof row.temperature === 'number' && row.temperature >= 0 && typeof row.guard === 'boolean' &&
        (row.exactEmpties === undefined || (Number.isInteger(row.exactEmpties) && row.exactEmpties >= 0 && row.exactEmpties <= MAX_LEVEL_EXACT_EMPTIES));
      if (!ok) throw new Error(`src/levels/settings.json: games.${id}[${i}] is not a valid level`);
    });
    out[id] = rows;
  }
  return out as Record<GameId, readonly LevelSetting[]>;
}

export const LEVEL_SETTINGS = checkedSettings(settingsData as SettingsFile);

/** The weakest level. */
export const MIN_LEVEL = 1;
/** The full engine: every request without a level plays at it. */
export const TOP_LEVEL = LEVEL_SETTINGS.mnk.length + 1;

/** The settings of a level below the top, or undefined for the top level (the full engine). */
export function levelSetting(game: GameId, level: number | undefined): LevelSetting | undefined {
  if (level === undefined || level >= TOP_LEVEL) return undefined;
  return LEVEL_SETTINGS[game][level - 1];
}

/** One level's measured strength. */
export interface LevelElo {
  readonly level: number;
  /** Elo relative to the seed engine at the calibration's time per move. */
  readonly elo: number;
  /** 95% error bar of `elo` (the seed engine fixed at 0). */
  readonly error: number;
}

export interface GameLevelTable {
  /** Game parameters the table was measured with (query-string form; empty: the defaults). */
  readonly params: string;
  /** Time per move of the top level and the seed engine. */
  readonly msPerMove: number;
  /** Games played between each pair of players measured. */
  readonly pairs: readonly { readonly a: string; readonly b: string; readonly games: number; readonly score: number }[];
  readonly levels: readonly LevelElo[];
  /** The command that reproduces this game's table. */
  readonly command: string;
}

interface EloFile {
  readonly games: Readonly<Record<string, GameLevelTable>>;
}

/** Measured tables by game (a game not yet measured has none). */
export const LEVEL_ELO: Readonly<Partial<Record<GameId, GameLevelTable>>> = (eloData as EloFile).games as Partial<Record<GameId, GameLevelTable>>;
