/**
 * Notices a rebuild under a running `npm start`: static files are read afresh at once, but the
 * functions keep the build data they imported at start (ES modules cannot be re-imported), so the
 * runtime says clearly that a restart is needed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** How often the build stamp is read (a small file): quick enough for a person, nothing for the CPU. */
const POLL_INTERVAL_MS = 2_000;

function builtAt(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { built_at?: string }).built_at;
  } catch {
    return undefined; // mid-write or missing: decide on the next poll
  }
}

/** Calls `onRebuild` when generated/build-info.json names a new build. Returns the stop function. */
export function watchBuild(root: string, onRebuild: (builtAt: string, startedWith: string | undefined) => void): () => void {
  const file = path.join(root, 'generated', 'build-info.json');
  const startedWith = builtAt(file);
  let seen = startedWith;
  // Polls the stamp itself rather than the file's mtime (fs.watchFile): a change made before the
  // first stat, or within the mtime's resolution, would otherwise go unseen.
  const timer = setInterval(() => {
    const now = builtAt(file);
    if (!now || now === seen) return;
    seen = now;
    onRebuild(now, startedWith);
  }, POLL_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
