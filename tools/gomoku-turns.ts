/**
 * npm run gomoku-turns -- --records LIST [--player NAME] [--nodes N] [--replies-by M] [--reply-nodes N]
 *
 * Where a K = 5 player's lost games turned: each game the player lost in the pbrain-match records is replayed,
 * and after each of its moves the pattern VCT (vct.ts, up to 12 own moves) asks whether the opponent now wins by
 * threats (fours and threes) within a node budget. The first such move is the game's turn (a proven loss from
 * there; the real turn may lie earlier, beyond the budget). At the turns up to the player's M-th move the
 * position before it is examined too: whether the opponent had an open three to answer or a VCT against a pass
 * (a threat already on the board), and which of the search's candidate replies hold: after a reply that is a
 * four the opponent blocks and the player moves again, so fours are counted apart; any other reply is refuted
 * (the VCT wins within --reply-nodes), holds (the VCT ends without a win) or is unresolved (the budget ran out).
 */
import { readFileSync } from 'node:fs';
import { UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { MnkPosition } from '../src/games/mnk/position.js';
import { F_FIVE, F_WIN4 } from '../src/games/mnk/pattern-tables.js';
import { VctSolver } from '../src/games/mnk/vct.js';
import type { GameRecord } from './gomoku-fit.js';

const USAGE = `npm run gomoku-turns -- --records LIST [options]

Replays the games a player lost and reports the first of its moves after which the opponent wins by threats
(the pattern VCT), and at the early turns which of its candidate replies would have held.

Options:
  --records LIST     comma-separated JSONL records of pbrain-match (required)
  --player NAME      the player examined: the side whose name contains NAME (default pbrain.js, Kibitz's brain)
  --nodes N          VCT node budget after each of the player's moves (default 300000)
  --replies-by M     examine the replies at turns up to the player's M-th move after the opening (default 5; 0: none)
  --reply-nodes N    VCT node budget for each reply (default 100000)
  --help             this text
`;

const VCT_DEPTH = 12;

export interface Turn {
  /** Index in the game's moves of the player's move after which the opponent wins by threats. */
  readonly ply: number;
  /** The player's move number after the opening (1 for its first own choice). */
  readonly moveNumber: number;
  /** Length of the opponent's VCT in own moves, and the nodes it took. */
  readonly length: number;
  readonly nodes: number;
}

export interface Replies {
  /** The opponent had a winning-four cell (an open three to answer) before the move. */
  readonly openThree: boolean;
  /** Length of the opponent's VCT against a pass before the move (0: none within the budget). */
  readonly passThreat: number;
  readonly candidates: number;
  readonly fours: number;
  readonly refuted: number;
  readonly unresolved: number;
  /** The replies that held. */
  readonly heldMoves: readonly number[];
}

function positionOf(game: GameRecord, plies: number): MnkPosition {
  const n = game.size;
  const pos = new MnkPosition(n, n, 5, new Uint8Array(n * n), 0, undefined, game.rule === 1);
  for (let i = 0; i < plies; i++) pos.makeMove(game.moves[i][1] * n + game.moves[i][0]);
  return pos;
}

/** The side (0 black, 1 white) whose name contains `player`, or -1. */
export function sideOf(game: GameRecord, player: string): number {
  if (game.black?.includes(player) === true) return 0;
  return game.white?.includes(player) === true ? 1 : -1;
}

/** The side (0 black, 1 white) of `player` when it lost the game, else -1 (another player's game, or won). */
export function lostBy(game: GameRecord, player: string): number {
  const side = sideOf(game, player);
  return side >= 0 && game.winner === 1 - side ? side : -1;
}

/** The first move of `side` after which the opponent wins by a VCT within `nodes`, or null. */
export function findTurn(game: GameRecord, side: number, nodes: number, vct = new VctSolver()): Turn | null {
  const opening = game.opening?.length ?? 0;
  const pos = positionOf(game, 0);
  const n = game.size;
  let moveNumber = 0;
  for (let ply = 0; ply < game.moves.length; ply++) {
    pos.makeMove(game.moves[ply][1] * n + game.moves[ply][0]);
    if (ply % 2 !== side || ply < opening) continue;
    moveNumber++;
    const length = vct.findWin(pos, VCT_DEPTH, nodes);
    if (length > 0) return { ply, moveNumber, length, nodes: vct.nodes };
  }
  return null;
}

/** The position before the player's move at `ply`: the opponent's threats and the fate of each candidate reply. */
export function examineReplies(game: GameRecord, ply: number, nodes: number, vct = new VctSolver()): Replies {
  const pos = positionOf(game, ply);
  const patterns = pos.patterns!;
  const opponent = 1 - pos.side;
  const openThree = patterns.count(opponent, F_WIN4) > 0;
  pos.makeNullMove();
  const passThreat = vct.findWin(pos, VCT_DEPTH, nodes);
  pos.unmakeNullMove();
  pos.searchRootPly = pos.ply;
  const moves = new Int32Array(pos.cellCount);
  const candidates = pos.generateSearchMoves(moves, 0);
  let fours = 0;
  let refuted = 0;
  let unresolved = 0;
  const heldMoves: number[] = [];
  for (let i = 0; i < candidates; i++) {
    pos.makeMove(moves[i]);
    // pos.side is now the opponent: a five cell of the player means the reply was a four.
    if (patterns.count(1 - pos.side, F_FIVE) > 0) fours++;
    else if (vct.findWin(pos, VCT_DEPTH, nodes) > 0) refuted++;
    else if (vct.stopped) unresolved++;
    else heldMoves.push(moves[i]);
    pos.unmakeMove(moves[i]);
  }
  return { openThree, passThreat, candidates, fours, refuted, unresolved, heldMoves };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

export interface TurnOptions {
  readonly player: string;
  readonly nodes: number;
  readonly repliesBy: number;
  readonly replyNodes: number;
}

/** The report's lines: one per lost game, then the summary. */
export function reportTurns(games: readonly GameRecord[], options: TurnOptions): string[] {
  const { player, nodes, repliesBy, replyNodes } = options;
  const vct = new VctSolver();
  const lines: string[] = [];
  const turns: Turn[] = [];
  const byMove = new Map<number, number>();
  const early: Replies[] = [];
  let lost = 0;
  games.forEach((game, index) => {
    const side = lostBy(game, player);
    if (side < 0) return;
    lost++;
    const turn = findTurn(game, side, nodes, vct);
    if (turn === null) {
      lines.push(`game ${index + 1}: no turn found within ${nodes} nodes`);
      return;
    }
    turns.push(turn);
    byMove.set(turn.moveNumber, (byMove.get(turn.moveNumber) ?? 0) + 1);
    let line = `game ${index + 1}: turned at the player's move ${turn.moveNumber} (ply ${turn.ply + 1} of ${game.moves.length}), `;
    line += `VCT of ${turn.length} in ${turn.nodes} nodes`;
    if (turn.moveNumber <= repliesBy) {
      const r = examineReplies(game, turn.ply, replyNodes, vct);
      early.push(r);
      line += `; before it: ${r.openThree ? 'an open three' : r.passThreat > 0 ? `a VCT of ${r.passThreat} against a pass` : 'no threat'}`;
      line += `; replies: ${r.candidates} (fours ${r.fours}, refuted ${r.refuted}, held ${r.heldMoves.length}, unresolved ${r.unresolved})`;
    }
    lines.push(line);
  });
  lines.push('', `${lost} games lost by ${player}; a turn found in ${turns.length}`);
  if (turns.length > 0) {
    const sortedNodes = turns.map((t) => t.nodes).sort((a, b) => a - b);
    const moves = [...byMove.entries()].sort((a, b) => a[0] - b[0]).map(([m, c]) => `${m}:${c}`);
    lines.push(`turn at the player's move (after the opening): ${moves.join(' ')}`);
    lines.push(`VCT nodes: quartiles ${quantile(sortedNodes, 0.25)} ${quantile(sortedNodes, 0.5)} ${quantile(sortedNodes, 0.75)}`);
  }
  if (early.length > 0) {
    const count = (f: (r: Replies) => boolean): number => early.filter(f).length;
    lines.push(
      `turns by move ${repliesBy}: ${early.length}; before them an open three ${count((r) => r.openThree)}, ` +
        `a VCT against a pass ${count((r) => !r.openThree && r.passThreat > 0)}, neither ${count((r) => !r.openThree && r.passThreat === 0)}; ` +
        `some reply held ${count((r) => r.heldMoves.length > 0)}, only unresolved ones ${count((r) => r.heldMoves.length === 0 && r.unresolved > 0)}, ` +
        `none but fours ${count((r) => r.heldMoves.length === 0 && r.unresolved === 0)}`,
    );
  }
  return lines;
}

function main({ values }: { values: Record<string, unknown> }): void {
  if (typeof values.records !== 'string') throw new UsageError('--records is required');
  const options: TurnOptions = {
    player: typeof values.player === 'string' ? values.player : 'pbrain.js',
    nodes: intOption(values, 'nodes', 300_000, 1),
    repliesBy: intOption(values, 'replies-by', 5, 0),
    replyNodes: intOption(values, 'reply-nodes', 100_000, 1),
  };
  const games: GameRecord[] = values.records
    .split(',')
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== ''))
    .map((line) => JSON.parse(line) as GameRecord);
  for (const line of reportTurns(games, options)) console.log(line);
}

runCliIfMain(
  import.meta.url,
  {
    name: 'npm run gomoku-turns',
    usage: USAGE,
    options: {
      records: { type: 'string' },
      player: { type: 'string' },
      nodes: { type: 'string' },
      'replies-by': { type: 'string' },
      'reply-nodes': { type: 'string' },
    },
  },
  main,
);
