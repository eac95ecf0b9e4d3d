/**
 * A small JSON cache for the route tables: Netlify's parsers are slow to load (zip-it-and-ship-it
 * about 2 s), while their answer changes only with the function sources or the parser's version.
 * Without a folder nothing is cached. Writes go through a temporary file and a rename, so parallel
 * test files never read half a file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export async function cachedJson<T>(cacheDir: string | undefined, keyParts: readonly string[], compute: () => Promise<T>): Promise<T> {
  if (!cacheDir) return compute();
  const key = createHash('sha256').update(keyParts.join('\0')).digest('hex').slice(0, 32);
  const file = path.join(cacheDir, `${keyParts[0]}-${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    // a miss (or an unreadable file): compute and store
  }
  const value = await compute();
  mkdirSync(cacheDir, { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, file);
  return value;
}
