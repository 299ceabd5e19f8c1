/**
 * The Othello rules, patterns and evaluation: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/games/othello/codec.js
 */
import './othello/codec.js';
import './othello/rules.js';
import './othello/position.js';
import './othello/perft.js';
import './othello/patterns.js';
import './othello/incremental.js';
import './othello/evaluation.js';
