/**
 * Entry of the bench command-line scripts: runs `main` only when the module is the script node was
 * started with (tests import the same modules), and turns an error into its message and exit code 1.
 */
export function runIfMain(moduleUrl: string, main: () => void | Promise<void>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  Promise.resolve()
    .then(main)
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
