/**
 * The command lines: the shared option readers, the test prerequisites, and the service's entries (--help, a bad option);
 * the tools' entries are in cli-tools.test.ts, so that each file stays well inside the per-file limit on a loaded machine.
 * These test files run in this one process (a test process costs about 1.5 s of CPU under tap's coverage hooks; docs/testing.md).
 * One file alone: npx tap dist/test/tools/cli/options.js
 */
import './cli/options.js';
import './cli/test-prereqs.js';
import './cli/service-entries.js';
