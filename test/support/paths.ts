/**
 * Paths from the repository's root, the same whether a test runs from its source (test/...) or, as
 * `npm test` runs it, compiled to dist/test/... (scripts/build-tests.ts).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** The repository's root, with a trailing slash. */
export const ROOT = here.replace(/(dist\/)?test\/support\/paths\.[jt]s$/, '');

/** An absolute path under the repository's root. */
export function fromRoot(path: string): string {
  return ROOT + path;
}

/** The same, as a file URL. */
export function urlFromRoot(path: string): URL {
  return pathToFileURL(fromRoot(path));
}
