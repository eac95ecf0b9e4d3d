/**
 * `--help` for every script under scripts/: print the usage on stdout and exit 0 before the script
 * does anything else (no build, no server, no file written). Library modules answer too, naming the
 * command that uses them.
 */

/** True when the arguments ask for help (`--help` or `-h` anywhere). */
export function wantsHelp(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** Prints `usage` and ends the process with 0 when help was asked for; otherwise returns. */
export function answerHelp(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!wantsHelp(argv)) return;
  process.stdout.write(`${usage.trim()}\n`);
  process.exit(0);
}

if (import.meta.main) answerHelp('Usage: imported by the scripts, not run: answerHelp(usage) gives a script its --help.');
