/**
 * The Othello tools (training data, endgame check, judge, match against NBoard engines): these test files run in this one process
 * (a test process costs about 1.5 s of CPU under tap's coverage hooks before its first test; docs/testing.md).
 * One file alone: npx tap dist/test/tools/othello/match.js
 */
import './othello/data.js';
import './othello/endgame.js';
import './othello/judge.js';
import './othello/match.js';
