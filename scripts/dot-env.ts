/**
 * `.env` for `npm start`: Node's own parser (`process.loadEnvFile`), which never replaces a variable
 * the environment already sets, so `PORT=9000 npm start` still wins over a PORT in the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { answerHelp } from './usage.ts';

/** Loads `file` when it exists; returns the names it set and the names it left as the environment had them. */
export function loadDotEnv(file: string): { loaded: string[]; kept: string[] } | undefined {
  if (!existsSync(file)) return undefined;
  const names = Object.keys(parseEnv(readFileSync(file, 'utf8')));
  const kept = names.filter((name) => process.env[name] !== undefined);
  process.loadEnvFile(file);
  return { loaded: names.filter((name) => !kept.includes(name)), kept };
}

if (import.meta.main) {
  answerHelp(
    'Usage: imported, not run: loadDotEnv(file) reads .env for npm start (scripts/serve.ts) without replacing variables already set.',
  );
}
