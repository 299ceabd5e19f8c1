/**
 * What the win/loss/draw proof beyond the exact solver's limit changes (offline; docs/othello-strength.md):
 *
 *   npm run othello-endgame -- --empties 19,20 --positions 50 --ms 1000
 *
 * Positions with exactly E empties come from games played from the balanced openings (depth-4 moves,
 * 10% random). Each is answered twice at the same budget: by the midgame search alone (what the service
 * did beyond the exact limit before the proof existed) and by `analyse` as the service does now. Both
 * moves are then judged by an untimed outcome proof of the position after them: a move "drops" the
 * outcome when the position is won and the move does not keep the win, or drawn and the move loses.
 * With --discs, exact solves also measure the discs each move gives away against the position's value.
 */
import { type ParsedArgs, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { Random } from '../src/core/random.js';
import { definition, engine } from '../src/games/othello/index.js';
import type { OthelloPosition } from '../src/games/othello/position.js';
import { solveExactly, solveWinLossDraw } from '../src/games/othello/solver.js';
import { analyse } from '../src/search/analyse.js';
import { NOT_TERMINAL } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { readOpenings } from './othello-match.js';
import { startPosition } from './othello-data.js';

export interface EndgameCheckOptions {
  readonly empties: readonly number[];
  readonly positions: number;
  readonly ms: number;
  readonly seed: number;
  readonly openings: readonly (readonly string[])[];
  readonly verbose?: boolean;
  /** Also measure the discs each answer gives away: exact solves of the position and of each answer's child. */
  readonly discs?: boolean;
}

/** A position with exactly `empties` empty squares from a game played from a random opening, or null. */
export function samplePosition(empties: number, rng: Random, mover: Searcher, openings: readonly (readonly string[])[]): OthelloPosition | null {
  const pos = startPosition();
  for (const square of openings[rng.below(openings.length)]) {
    const code = definition.decodeMove(pos, square, 'move');
    if (!code.ok) throw new UsageError(`bad opening move ${square}`);
    pos.makeMove(code.value);
  }
  const buffer = new Int32Array(64);
  while (pos.terminal() === NOT_TERMINAL && pos.empties > empties) {
    const count = pos.generateMoves(buffer, 0);
    const random = count === 1 || rng.below(100) < 10;
    pos.makeMove(random ? buffer[rng.below(count)] : mover.search(pos, { maxDepth: 4, seed: rng.nextU32() }).move);
  }
  return pos.empties === empties && pos.terminal() === NOT_TERMINAL ? pos : null;
}

/** Exact final disc differential after `move`, seen from the mover (untimed solve). */
function discsAfter(pos: OthelloPosition, move: number): number {
  pos.makeMove(move);
  const value = pos.terminal() !== NOT_TERMINAL ? -pos.finalScore() : -solveExactly(pos, null)!.exactScore!;
  pos.unmakeMove(move);
  return value === 0 ? 0 : value;
}

/** Outcome for the side to move after `move`, seen from the mover: 1 win, 0 draw, -1 loss. */
function outcomeAfter(pos: OthelloPosition, move: number): number {
  pos.makeMove(move);
  const status = pos.terminal();
  let outcome: number;
  if (status !== NOT_TERMINAL) outcome = -Math.sign(pos.finalScore());
  else outcome = -Math.sign(solveWinLossDraw(pos, null)!.score);
  pos.unmakeMove(move);
  return outcome;
}

export function checkEndgames(options: EndgameCheckOptions, print: (line: string) => void): void {
  const rng = new Random(options.seed);
  const mover = new Searcher(new TranspositionTable(16));
  const table = new TranspositionTable(64);
  const searcher = new Searcher(table);
  for (const empties of options.empties) {
    let won = 0;
    let drawn = 0;
    let searchDrops = 0;
    let serviceDrops = 0;
    let proved = 0;
    let searchMs = 0;
    let serviceMs = 0;
    let worstMs = 0;
    // Discs given away (the position's exact value less the value after the move), in all and in lost positions.
    const given = { search: 0, service: 0, searchLost: 0, serviceLost: 0, lost: 0 };
    for (let n = 0; n < options.positions; ) {
      const pos = samplePosition(empties, rng, mover, options.openings);
      if (pos === null) continue;
      n++;
      const outcome = Math.sign(solveWinLossDraw(pos, null)!.score);
      if (outcome > 0) won++;
      else if (outcome === 0) drawn++;
      // Each answer starts from an empty table, as a fresh worker would.
      table.clear();
      let started = Date.now();
      const plain = searcher.search(pos, { deadline: started + options.ms });
      searchMs += Date.now() - started;
      table.clear();
      started = Date.now();
      const service = analyse(engine, pos, searcher, { deadline: started + options.ms });
      const took = Date.now() - started;
      serviceMs += took;
      worstMs = Math.max(worstMs, took);
      if (service.solved) proved++;
      const plainOutcome = outcomeAfter(pos, plain.move);
      const serviceOutcome = outcomeAfter(pos, service.move);
      if (plainOutcome < outcome) searchDrops++;
      if (serviceOutcome < outcome) serviceDrops++;
      let discs = '';
      if (options.discs) {
        const best = solveExactly(pos, null)!.exactScore!;
        const searchGave = best - discsAfter(pos, plain.move);
        const serviceGave = best - discsAfter(pos, service.move);
        given.search += searchGave;
        given.service += serviceGave;
        if (outcome < 0) {
          given.lost++;
          given.searchLost += searchGave;
          given.serviceLost += serviceGave;
        }
        discs = `; exact ${best}, discs given away: search ${searchGave}, service ${serviceGave}`;
      }
      if (options.verbose) {
        const how = service.solved ? 'proved' : 'searched';
        const answers = `search ${plain.move} -> ${plainOutcome}; service ${service.move} -> ${serviceOutcome}`;
        print(`  #${n}: outcome ${outcome}; ${answers} (${how}, ${took} ms)${discs}`);
      }
    }
    const n = options.positions;
    print(
      `${empties} empties, ${n} positions (${won} won, ${drawn} drawn for the side to move) at ${options.ms} ms: ` +
        `outcome dropped by the midgame search ${searchDrops}, by the service ${serviceDrops}; ` +
        `proved ${proved}; mean ms ${(searchMs / n).toFixed(0)} / ${(serviceMs / n).toFixed(0)}, service longest ${worstMs}`,
    );
    if (options.discs) {
      const per = (x: number, of: number): string => (of === 0 ? '-' : (x / of).toFixed(2));
      print(
        `  mean discs given away per move: midgame search ${per(given.search, n)}, service ${per(given.service, n)}; ` +
          `in the ${given.lost} lost positions: search ${per(given.searchLost, given.lost)}, service ${per(given.serviceLost, given.lost)}`,
      );
    }
  }
}

const usage = `npm run othello-endgame -- [--empties 19,20] [--positions 50] [--ms 1000] [--seed 1] [--openings FILE] [--discs] [--verbose]

Positions with exactly E empties (games from the balanced openings), each answered at --ms by the
midgame search alone and by the service's analysis (exact solve or win/loss/draw proof when the time
allows); prints how often each move gives away the position's proven outcome.

  --empties LIST   numbers of empty squares (default 19,20)
  --positions N    positions per number of empties (default 50)
  --ms N           time budget per answer (default 1000)
  --seed S         random seed of the games (default 1)
  --openings FILE  openings (default tools/othello-openings.txt)
  --discs          also the discs each answer gives away (exact solves of the position and the answers; slow)
  --verbose        one line per position
  -h, --help       this text
`;

const spec = {
  name: 'othello-endgame',
  usage,
  options: {
    empties: { type: 'string' },
    positions: { type: 'string' },
    ms: { type: 'string' },
    seed: { type: 'string' },
    openings: { type: 'string' },
    verbose: { type: 'boolean' },
    discs: { type: 'boolean' },
  },
} as const;

function main({ values }: ParsedArgs<typeof spec.options>): void {
  const empties = (values.empties ?? '19,20').split(',').map(Number);
  if (!empties.every((e) => Number.isInteger(e) && e >= 1 && e <= 30)) throw new UsageError('--empties must list numbers 1..30, e.g. 19,20');
  const options: EndgameCheckOptions = {
    empties,
    positions: intOption(values, 'positions', 50, 1),
    ms: intOption(values, 'ms', 1000, 1),
    seed: intOption(values, 'seed', 1, 0),
    openings: readOpenings(values.openings),
    verbose: values.verbose === true,
    discs: values.discs === true,
  };
  checkEndgames(options, console.log);
}

runCliIfMain(import.meta.url, spec, main);
