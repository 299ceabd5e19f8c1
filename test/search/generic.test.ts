/**
 * The generic search: lines, multi-PV, least loss, time management, independence: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/search/generic/analyse-lines.js
 */
import './generic/analyse-lines.js';
import './generic/least-loss.js';
import './generic/multipv.js';
import './generic/search.js';
import './generic/timeman.js';
import './generic/clock.js';
import './generic/independence.js';
