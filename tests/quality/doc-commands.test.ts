/**
 * Commands in the docs that send `npm run`'s output to a file or a pipe must keep npm's banner out of it:
 * `npm run <script>` prints `> name@version <script>` on stdout before the script's own output, so
 * `npm run enquiries -- csv > enquiries.csv` writes the banner before the BOM. The docs say `--output <file>`
 * or `npm run --silent …` instead. Checked in every inline code span and code-block line of docs/ and README.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** `npm run` without --silent/-s, then on the same command a stdout redirect or a pipe. */
const BANNERED_REDIRECT = /\bnpm run (?!--silent\b|-s\b)[^`|>\n]*?(?:\s(?:1?>>?|\|)\s)/;

function* markdownFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* markdownFiles(full);
    else if (entry.name.endsWith('.md')) yield full;
  }
}

/** The commands (inline code spans and fenced-code lines) of a markdown text, with their line numbers. */
function commandsOf(text: string): { line: number; command: string }[] {
  const commands: { line: number; command: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) commands.push({ line: i + 1, command: line });
    else for (const [, span] of line.matchAll(/`([^`]+)`/g)) commands.push({ line: i + 1, command: span ?? '' });
  });
  return commands;
}

/** `file:line: command` for every documented `npm run … > file` or `npm run … |` without --silent. */
function banneredRedirects(file: string, text: string): string[] {
  return commandsOf(text)
    .filter(({ command }) => BANNERED_REDIRECT.test(command))
    .map(({ line, command }) => `${file}:${line}: ${command.trim()}`);
}

describe('documented commands keep npm run’s banner out of files', () => {
  it('flags a redirect or pipe after npm run, not --silent, --output or a redirect of another command', () => {
    const text = [
      'Enquiries: `npm run enquiries -- csv > enquiries.csv` or `npm run --silent enquiries -- csv > e.csv`,',
      '`npm run stats -- --csv --output november.csv`, `npx agent-ready-check https://x --json > report.json`.',
      '```sh',
      'npm run stats -- --json | jq .days',
      'npm run -s stats -- --json | jq .days',
      '```',
    ].join('\n');
    expect(banneredRedirects('x.md', text)).toEqual([
      'x.md:1: npm run enquiries -- csv > enquiries.csv',
      'x.md:4: npm run stats -- --json | jq .days',
    ]);
  });

  it('no doc tells an operator to redirect npm run’s output without --silent', () => {
    const files = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];
    const problems = files.flatMap((file) => banneredRedirects(path.relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });
});
