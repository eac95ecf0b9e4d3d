/**
 * A cache between builds of values derived from one input each, keyed by a hash of that input: one file in the
 * build cache with a line per key (`[key, value]` as JSON), so a 100,000-article site never makes one string past
 * V8's limit. A damaged or invalid line is derived again; only the keys this build asked for are written back.
 * The build-cache integration empties such files with Astro's caches when the code changes (the code derives them).
 * Used by the search terms (src/astro/search-terms-cache.ts) and the catalogue's bodies (src/astro/collection-catalog.ts).
 * @module
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** A cache read from its file, and `save()` to write back the values this build used. */
export interface LineCache<Value> {
  get(key: string): Value | undefined;
  set(key: string, value: Value): void;
  /** How many values came from the file, and how many were derived in this build. */
  readonly reused: number;
  readonly counted: number;
  save(): Promise<void>;
}

let saves = 0;

/** Reads `cacheDir/file` (none, or a damaged line: those values are derived again), keeping the values `isValue` accepts. */
export async function openLineCache<Value>(
  cacheDir: string,
  file: string,
  isValue: (value: unknown) => value is Value,
): Promise<LineCache<Value>> {
  const location = path.join(cacheDir, file);
  const previous = new Map<string, Value>();
  if (existsSync(location)) {
    const lines = createInterface({ input: createReadStream(location, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      try {
        const [key, value] = JSON.parse(line) as [unknown, unknown];
        if (typeof key === 'string' && isValue(value)) previous.set(key, value);
      } catch {
        // A damaged line (a build cut off while writing it, say): that value is derived again.
      }
    }
  }
  const used = new Map<string, Value>();
  let reused = 0;
  let counted = 0;
  return {
    get(key) {
      const value = previous.get(key);
      if (value !== undefined) {
        reused++;
        used.set(key, value);
      }
      return value;
    },
    set(key, value) {
      counted++;
      used.set(key, value);
    },
    get reused() {
      return reused;
    },
    get counted() {
      return counted;
    },
    async save() {
      // Unchanged: the same keys, all from the file. Else written whole, a line at a time, then renamed over the old file.
      if (counted === 0 && used.size === previous.size) return;
      await mkdir(cacheDir, { recursive: true });
      const temporary = `${location}.${process.pid}.${++saves}.tmp`;
      await writeFile(
        temporary,
        (function* () {
          for (const entry of used) yield `${JSON.stringify(entry)}\n`;
        })(),
      );
      await rename(temporary, location);
    },
  };
}
