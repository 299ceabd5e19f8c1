/**
 * The Tablut tools (weight screens, tuning, the Challenge match runner): these test files run in this one process
 * (a test process costs about 1.5 s of CPU under tap's coverage hooks before its first test; docs/testing.md).
 * One file alone: npx tap dist/test/tools/tablut/screen.js
 */
import './tablut/screen.js';
import './tablut/tune.js';
import './tablut/challenge-match.js';
