/**
 * `--help` for every script under scripts/ and bench/: print the usage on stdout and exit 0 before the
 * script does anything else (no build, no server, no file written). Library modules answer too, naming
 * the command that uses them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * {@link answerHelp} with the script's own doc comment as the text (its first block; the indented
 * `node bench/<file>` line in it is the usage line): the benchmarks document themselves there.
 */
export function answerHelpFromDoc(moduleUrl: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!wantsHelp(argv)) return;
  const file = fileURLToPath(moduleUrl);
  const doc = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  const lines = doc
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .filter((line) => !line.startsWith('@module'));
  const name = path.relative(path.resolve(import.meta.dirname, '..'), file);
  const usage = lines.find((line) => /^\s+(node|npm run) /.test(line) && line.includes(name))?.trim() ?? `node ${name}`;
  answerHelp(`Usage: ${usage}\n\n${lines.join('\n').trim()}`, argv);
}

if (import.meta.main) answerHelp('Usage: imported by the scripts, not run: answerHelp(usage) gives a script its --help.');
