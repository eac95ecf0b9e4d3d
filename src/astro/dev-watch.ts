/**
 * What `npm run dev` leaves out of its file watcher: the folders the build, the benchmarks, the tests,
 * the local runtime and mutation testing write (dist/, generated/, .netlify/, bench/.out/, bench/.corpus/,
 * tests/.tmp/, reports/, .stryker-tmp*). Vite watches the whole project by default; after one 10,000-article build
 * benchmark, bench/.out held 96,000 files and the watcher's first scan blocked the dev server's event
 * loop until its first page took four times the CPU (BENCHMARKS.md, "Dev server"). The content folder
 * is always watched, even when CONTENT_DIR points into one of these (the benchmarks' corpora).
 */
import path from 'node:path';

const SCRATCH_FOLDERS = ['dist', 'generated', '.netlify', 'bench/.out', 'bench/.corpus', 'tests/.tmp', 'reports'];

/** A chokidar `ignored` matcher for the project at `root` whose content is in `contentDir`. */
export function devWatchIgnored(root: string, contentDir: string): (file: string) => boolean {
  const content = path.resolve(root, contentDir);
  const scratch = SCRATCH_FOLDERS.map((folder) => path.resolve(root, folder));
  const within = (file: string, dir: string): boolean => file === dir || file.startsWith(dir + path.sep);
  return (file) => {
    const absolute = path.resolve(root, file);
    // The content folder and the folders on the way to it stay watched.
    if (within(absolute, content) || within(content, absolute)) return false;
    return scratch.some((dir) => within(absolute, dir)) || path.basename(absolute).startsWith('.stryker-tmp');
  };
}
