/**
 * Which build the local runtime serves, and fresh function instances for a new one. Netlify starts fresh functions
 * for every deploy; a running `npm start` meets a new build when `npm run build` runs beside it (stranger s9b,
 * finding 1). ES modules cannot be imported twice from one URL, and the functions read their build data relative to
 * their own URL (`new URL('../../generated/…', import.meta.url)`, JSON imports), so a new build's functions are
 * imported from a snapshot of it: netlify/functions copied, generated/ hard-linked (the build writes generated/
 * afresh, so the links keep the snapshot's files as they were), src/ linked back (runtime-neutral code, no build
 * data). Every file a snapshot's functions read is then that build's, however long a request runs.
 *
 * A build is complete when it has written generated/fingerprint.txt (`npm run build` and ensureBuild write it last,
 * after Pagefind; `--before` deletes it first): its text names the build.
 */
import { cpSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import type { FunctionEntry } from './routes.ts';

/** The file whose text names the complete build generated/ and dist/ hold (scripts/build-fingerprint.ts). */
export const buildStampFile = (root: string): string => path.join(root, 'generated', 'fingerprint.txt');

/** The origin the build under `root` was made for (generated/build-info.json), or undefined when it does not say. */
export function buildOrigin(root: string): string | undefined {
  try {
    const { origin } = JSON.parse(readFileSync(path.join(root, 'generated', 'build-info.json'), 'utf8')) as { origin?: unknown };
    return typeof origin === 'string' ? new URL(origin).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The stamp file's identity on disk: a stat, so that asking per request costs no read. */
export function stampKey(file: string): string | undefined {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.ino}:${info.mtimeMs}:${info.size}` : undefined;
}

/** The build's name, or undefined while no complete build is there (one under way, or the last one failed). */
export function readBuildStamp(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isFile()) {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target); // another file system: a copy keeps the snapshot all the same
      }
    }
  }
}

/**
 * A snapshot of the functions and the build data under `root`, in a new folder of `parent` (one per snapshot, so
 * runtimes of several processes over one checkout never share one). Returns its folder.
 */
export function snapshotBuild(root: string, parent: string): string {
  mkdirSync(parent, { recursive: true });
  removeOrphanedSnapshots(parent);
  const dir = mkdtempSync(path.join(parent, `build-${process.pid}-`));
  cpSync(path.join(root, 'netlify', 'functions'), path.join(dir, 'netlify', 'functions'), {
    recursive: true,
    filter: (file) => !file.endsWith('.test.ts'),
  });
  linkTree(path.join(root, 'generated'), path.join(dir, 'generated'));
  symlinkSync(path.join(root, 'src'), path.join(dir, 'src'), 'dir');
  return dir;
}

/** The route table's entries, their modules in the snapshot `dir` instead of under `root`. */
export function entriesIn(entries: readonly FunctionEntry[], root: string, dir: string): FunctionEntry[] {
  return entries.map((entry) => ({ ...entry, mainFile: path.join(dir, path.relative(root, entry.mainFile)) }));
}

/** Whether process `pid` still runs. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Snapshots of runtimes that were killed before they could remove theirs (named build-<pid>-…). */
function removeOrphanedSnapshots(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^build-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !running(pid)) removeSnapshot(path.join(parent, name));
  }
}

/** Removes a snapshot folder (the runtime's own, at stop or when a newer build has replaced it). */
export function removeSnapshot(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
