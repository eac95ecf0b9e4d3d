/**
 * npm runs a script through `sh -c`, which does not pass on a SIGTERM sent to npm's pid: npm exits and the script's
 * process is re-parented, still holding its port (`npm start`: scripts/serve.ts; `npm run dev`: `astro dev`, wired in
 * astro.config.mjs). Started by npm, a changed parent means npm is gone: the process stops as on a SIGTERM.
 * @module
 */

/** How often the parent is looked at: a stop by npm's pid takes at most this long. */
export const PARENT_CHECK_INTERVAL_MS = 500;

/** What the watch reads, for tests: the environment npm sets, the parent's pid now. */
export interface ParentWatchOptions {
  env?: Record<string, string | undefined>;
  ppid?: () => number;
  /** The parent's pid when the process started, when it was read earlier than the watch starts (before a build). */
  parent?: number;
  intervalMs?: number;
}

/**
 * Calls `stop` once this process's parent is gone, when npm started it for one of `scripts` (`npm_lifecycle_event`).
 * Started otherwise (`nohup node scripts/serve.ts &`), outliving the shell that started it may be the point: nothing is
 * watched and undefined is returned; else a function that ends the watch. The timer does not keep the process alive.
 */
export function stopWhenNpmIsGone(
  scripts: readonly string[],
  stop: () => void,
  options: ParentWatchOptions = {},
): (() => void) | undefined {
  const { env = process.env, ppid = () => process.ppid, intervalMs = PARENT_CHECK_INTERVAL_MS } = options;
  if (!scripts.includes(env.npm_lifecycle_event ?? '')) return undefined;
  const parent = options.parent ?? ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    stop();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * `npm run dev` and `npm run dev:functions`: `astro dev` stops as on a SIGTERM when npm is gone. Astro may load its config
 * more than once in one process (a restart after the config changed): one watch per process.
 */
export function stopDevServerWithNpm(): void {
  const shared = globalThis as { __devServerParentWatch?: boolean };
  if (shared.__devServerParentWatch) return;
  shared.__devServerParentWatch = true;
  stopWhenNpmIsGone(['dev', 'dev:functions'], () => process.kill(process.pid, 'SIGTERM'));
}
