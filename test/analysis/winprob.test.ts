/**
 * Win probability: monotone in the score, inside (0, 1) for heuristic scores, exact for proven
 * results; the fitting tool recovers a known curve from synthetic outcomes.
 */
import t from 'tap';
import { GAMES } from '../../src/games/registry.js';
import { GAME_IDS } from '../../src/games/types.js';
import { HEURISTIC_MAX, HEURISTIC_MIN, WIN_PROB_CURVES, heuristicWinProbability, logistic } from '../../src/analysis/winprob.js';
import { toClientEvaluation } from '../../src/http/game-service.js';
import { EVAL_LIMIT, WIN_SCORE } from '../../src/search/score.js';
import { Random } from '../../src/core/random.js';
import { calibration, fitCurve, type Sample } from '../../tools/winprob-fit.js';

t.test('monotone in the score, symmetric, heuristic values never certain', async (t) => {
  for (const game of GAME_IDS) {
    let previous = -1;
    let rises = 0;
    // The whole heuristic range, finely where the curve moves (a few scales around 0).
    const scale = WIN_PROB_CURVES[game].scale;
    const scores = [-EVAL_LIMIT, -EVAL_LIMIT / 2, -EVAL_LIMIT / 10];
    for (let s = -30 * scale; s <= 30 * scale; s += scale / 50) scores.push(Math.round(s));
    scores.push(EVAL_LIMIT / 10, EVAL_LIMIT / 2, EVAL_LIMIT);
    for (const score of scores.sort((a, b) => a - b)) {
      const p = heuristicWinProbability(game, score);
      if (p < previous) t.fail(`${game}: falls at ${score}`);
      if (p > previous) rises++;
      previous = p;
      if (p < HEURISTIC_MIN || p > HEURISTIC_MAX) t.fail(`${game}: ${p} out of range at ${score}`);
    }
    t.ok(rises > 50, `${game}: rises with the score (${rises} steps)`);
    t.equal(heuristicWinProbability(game, 0), 0.5, `${game}: an even score is one half`);
    const curve = WIN_PROB_CURVES[game];
    for (const s of [1, 100, 5000, 100_000]) {
      t.ok(Math.abs(logistic(s, curve) + logistic(-s, curve) - 1) < 1e-12, `${game}: p(s) + p(-s) = 1 at ${s}`);
    }
  }
});

t.test('proven results: exactly 1, 0.5 and 0', async (t) => {
  for (const game of GAME_IDS) {
    const def = GAMES[game];
    const ev = (score: number, exact: boolean, exactScore?: number) => toClientEvaluation(def, { score, exact, exactScore });
    t.same([ev(WIN_SCORE - 7, true).outcome, ev(WIN_SCORE - 7, true).winProbability], ['win', 1], `${game}: win`);
    t.same([ev(-(WIN_SCORE - 4), true).outcome, ev(-(WIN_SCORE - 4), true).winProbability], ['loss', 0], `${game}: loss`);
    t.same([ev(0, true).outcome, ev(0, true).winProbability], ['draw', 0.5], `${game}: draw`);
    const heuristic = ev(150, false);
    t.equal(heuristic.outcome, undefined);
    t.ok(heuristic.winProbability > 0.5 && heuristic.winProbability < 1, `${game}: a heuristic edge is a chance, not a certainty`);
  }
  const othello = GAMES.othello;
  t.equal(toClientEvaluation(othello, { score: WIN_SCORE - 3, exact: true, exactScore: 12 }).winProbability, 1, 'othello: an exact +12 wins');
});

t.test('the fit recovers a known curve; the calibration of the true curve is good', async (t) => {
  const truth = { scale: 400, exponent: 0.5 };
  const rng = new Random(11);
  const samples: Sample[] = [];
  for (let i = 0; i < 20_000; i++) {
    const score = Math.round((rng.nextFloat() - 0.5) * 20_000);
    const p = logistic(score, truth);
    const u = rng.nextFloat();
    samples.push({ score, result: u < p ? 1 : 0 });
  }
  const fitted = fitCurve(samples);
  t.equal(fitted.exponent, 0.5, 'the exponent from the grid');
  t.ok(Math.abs(fitted.scale - 400) / 400 < 0.2, `scale ${fitted.scale.toFixed(0)} near 400`);
  const cal = calibration(samples, truth);
  t.ok(cal.brier < cal.baseline, 'better than always predicting the mean');
  for (const bin of cal.bins.filter((b) => b.count > 500)) {
    t.ok(Math.abs(bin.predicted - bin.observed) < 0.05, `bin ${bin.from.toFixed(1)}: ${bin.predicted.toFixed(3)} vs ${bin.observed.toFixed(3)}`);
  }
});

