/**
 * Tablut: rules, codec, engine, evaluation and the Challenge client: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/games/tablut/client.js
 */
import './tablut/client.js';
import './tablut/codec.js';
import './tablut/conversion.js';
import './tablut/engine.js';
import './tablut/evaluation.js';
import './tablut/rules.js';
