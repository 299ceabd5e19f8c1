/**
 * Selects balanced Othello openings for tools/othello-match.ts: seeded random move sequences of a
 * few plies from the start, one per position up to the board's symmetries, kept when a strong
 * NBoard engine at a moderate depth scores them within +-max-eval discs. The engine's scores are
 * used only to choose the positions (a measurement); the file keeps the moves, not the scores.
 */
import { writeFileSync } from 'node:fs';
import { type ParsedArgs, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { Random } from '../src/core/random.js';
import { definition } from '../src/games/othello/index.js';
import type { OthelloPosition } from '../src/games/othello/position.js';
import { NOT_TERMINAL } from '../src/search/score.js';
import { NBoardEngine } from './nboard-client.js';

/** The eight symmetries of the square, as maps of (row, col). */
const SYMMETRIES: ((r: number, c: number) => number)[] = [
  (r, c) => r * 8 + c,
  (r, c) => c * 8 + r,
  (r, c) => (7 - r) * 8 + (7 - c),
  (r, c) => (7 - c) * 8 + (7 - r),
  (r, c) => r * 8 + (7 - c),
  (r, c) => (7 - r) * 8 + c,
  (r, c) => c * 8 + (7 - r),
  (r, c) => (7 - c) * 8 + r,
];

/** One key per position up to symmetry (the smallest of the eight images' cell strings). */
export function canonicalKey(pos: OthelloPosition): string {
  const cells: number[] = [];
  for (let sq = 0; sq < 64; sq++) {
    const lo = sq < 32;
    const bit = 1 << (sq & 31);
    const black = ((lo ? pos.bits[0] : pos.bits[1]) & bit) !== 0;
    const white = ((lo ? pos.bits[2] : pos.bits[3]) & bit) !== 0;
    cells.push(black ? 1 : white ? 2 : 0);
  }
  let best = '';
  for (const map of SYMMETRIES) {
    const image = new Array<number>(64);
    for (let sq = 0; sq < 64; sq++) image[map(sq >> 3, sq & 7)] = cells[sq];
    const key = image.join('') + pos.side;
    if (best === '' || key < best) best = key;
  }
  return best;
}

function startPosition(): OthelloPosition {
  const s = definition.initialState({});
  if (!s.ok) throw new Error('no initial state');
  const r = definition.decodeState(s.value, undefined);
  if (!r.ok) throw new Error('bad initial state');
  return r.value;
}

/** A random line of `plies` moves from the start (no passes), or null if the game ends or passes first. */
export function randomLine(plies: number, rng: Random): { moves: string[]; pos: OthelloPosition } | null {
  const pos = startPosition();
  const buffer = new Int32Array(64);
  const moves: string[] = [];
  for (let i = 0; i < plies; i++) {
    if (pos.terminal() !== NOT_TERMINAL) return null;
    const n = pos.generateMoves(buffer, 0);
    const move = buffer[rng.below(n)];
    if (move === 64) return null;
    moves.push(definition.encodeMove(pos, move).notation);
    pos.makeMove(move);
  }
  return pos.terminal() === NOT_TERMINAL ? { moves, pos } : null;
}

const usage = `npm run othello-openings -- --engine CMD [options]

Writes balanced openings (one per line, squares 'f5d6c3...') for npm run othello-match.

  --engine CMD        NBoard engine command line, run by the shell
  --engine-depth N    depth of the engine's scoring search (default 12)
  --plies N           opening length in plies (default 8)
  --count N           openings to keep (default 100)
  --max-eval X        keep positions the engine scores within +-X discs (default 2)
  --seed N            random seed (default 1)
  --out FILE          output file (default tools/othello-openings.txt)
  -h, --help          this text
`;

const spec = {
  name: 'othello-openings',
  usage,
  options: {
    engine: { type: 'string' },
    'engine-depth': { type: 'string' },
    plies: { type: 'string' },
    count: { type: 'string' },
    'max-eval': { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  if (values.engine === undefined) throw new UsageError('--engine is required');
  const depth = intOption(values, 'engine-depth', 12, 1, 60);
  const plies = intOption(values, 'plies', 8, 1, 40);
  const count = intOption(values, 'count', 100, 1, 100000);
  const seed = intOption(values, 'seed', 1);
  const maxEval = values['max-eval'] === undefined ? 2 : Number(values['max-eval']);
  if (!Number.isFinite(maxEval) || maxEval < 0) throw new UsageError(`--max-eval must be a number of discs >= 0, got '${values['max-eval']}'`);
  const out = values.out ?? 'tools/othello-openings.txt';
  const rng = new Random(seed);
  const engine = new NBoardEngine(values.engine);
  const kept: string[] = [];
  const seen = new Set<string>();
  let tried = 0;
  try {
    await engine.setDepth(depth);
    while (kept.length < count) {
      const line = randomLine(plies, rng);
      if (line === null) continue;
      const key = canonicalKey(line.pos);
      if (seen.has(key)) continue;
      seen.add(key);
      tried++;
      const answer = await engine.bestMove(line.moves);
      if (answer.eval !== undefined && Math.abs(answer.eval) <= maxEval) kept.push(line.moves.join(''));
      if (tried % 50 === 0) console.log(`${tried} scored, ${kept.length} kept`);
    }
  } finally {
    await engine.close();
  }
  const header = [
    `# ${count} Othello openings of ${plies} plies, distinct up to symmetry, each scored within +-${maxEval} discs`,
    `# by an NBoard engine at depth ${depth} (the scores are not kept). Made by:`,
    `#   npm run othello-openings -- --engine '${values.engine}' --engine-depth ${depth} --plies ${plies} --count ${count}` +
      ` --max-eval ${maxEval} --seed ${seed}`,
  ];
  writeFileSync(out, `${[...header, ...kept].join('\n')}\n`);
  console.log(`wrote ${kept.length} openings to ${out} (${tried} scored)`);
}

runCliIfMain(import.meta.url, spec, main);
