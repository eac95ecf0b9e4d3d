/**
 * Workaround for chokidar (Vite's watcher, and so Astro's content loaders') dropping a file's
 * `change` events for 50 ms after one it emits, the last included (https://github.com/paulmillr/chokidar/issues/1455;
 * open in chokidar 5.0.0). An editor's save that lands in two writes (truncated, then whole) within
 * that window emits one event; when the glob loader's reload reads the half-written file, the page
 * keeps it (a cut slug made it a 404) until the next save. Besides, the loader runs one reload per
 * event with no ordering between them. Here a content loader's watcher runs a file's reloads one at
 * a time and, after each, looks at the file again once the throttle window is over: if it changed
 * since the reload began, it reloads again, so the last reload reads the file as it is now.
 * tests/integration/dev-server.test.ts saves in two writes and polls the page.
 * @module
 */
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoaderContext } from 'astro/loaders';

type Listener = (path: string, ...rest: unknown[]) => unknown;
type Watcher = NonNullable<LoaderContext['watcher']>;

/** chokidar's window after a `change` event in which it drops the file's next ones (its `_throttle(EV.CHANGE, path, 50)`). */
const CHOKIDAR_CHANGE_THROTTLE_MS = 50;
/** Waited after a reload before the file is looked at again: past the throttle window, with a margin. */
const SETTLE_MS = CHOKIDAR_CHANGE_THROTTLE_MS * 2;
/** The watcher events the glob loader reloads or drops an entry on. */
const FILE_EVENTS = new Set(['add', 'change', 'unlink']);

/** What a write changes in a file's stat: its modification time and size (`missing` once deleted). */
function signature(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return 'missing';
  }
}

/** Per file: the end of its queue of reloads, and the listeners already waiting in it. */
interface FileQueue {
  tail: Promise<void>;
  waiting: Set<Listener>;
}

/**
 * `context` with a watcher whose file listeners run one at a time per file, each again after the
 * file changed under it. A listener already waiting for a file is not queued twice: it reads the
 * file when its turn comes.
 */
export function reloadingDroppedChanges(context: LoaderContext): LoaderContext {
  const watcher = context.watcher;
  if (!watcher) return context;
  const queues = new Map<string, FileQueue>();
  const run = async (listener: Listener, file: string, rest: unknown[]): Promise<void> => {
    for (;;) {
      const before = signature(file);
      try {
        await listener(file, ...rest);
      } catch {
        // The glob loader logs its own failures; one failed reload must not stop the file's next ones.
      }
      await sleep(SETTLE_MS);
      if (signature(file) === before) return;
    }
  };
  const serial =
    (listener: Listener): Listener =>
    (file, ...rest) => {
      const queue = queues.get(file) ?? { tail: Promise.resolve(), waiting: new Set<Listener>() };
      queues.set(file, queue);
      if (queue.waiting.has(listener)) return queue.tail;
      queue.waiting.add(listener);
      queue.tail = queue.tail.then(() => {
        queue.waiting.delete(listener);
        return run(listener, file, rest);
      });
      return queue.tail;
    };
  const wrapped: Watcher = new Proxy(watcher, {
    get(target, property, receiver) {
      if (property === 'on')
        return (event: string, listener: Listener) => {
          target.on(event as 'change', (FILE_EVENTS.has(event) ? serial(listener) : listener) as () => void);
          return wrapped;
        };
      const value: unknown = Reflect.get(target, property, receiver);
      // Other methods (add, off) run on the watcher itself, as the glob loader would call them.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...context, watcher: wrapped };
}
