/** A process npm started stops when npm is gone (its parent changed), and one started otherwise is left alone. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PARENT_CHECK_INTERVAL_MS, stopWhenNpmIsGone } from './npm-parent.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('stopWhenNpmIsGone', () => {
  it('stops once, within one interval of the parent changing, for a script npm started', () => {
    vi.useFakeTimers();
    let parent = 100;
    const stop = vi.fn();
    const end = stopWhenNpmIsGone(['dev', 'dev:functions'], stop, { env: { npm_lifecycle_event: 'dev:functions' }, ppid: () => parent });
    expect(end).toBeTypeOf('function');
    vi.advanceTimersByTime(PARENT_CHECK_INTERVAL_MS * 4);
    expect(stop).not.toHaveBeenCalled();
    parent = 1; // npm exited: re-parented to init
    vi.advanceTimersByTime(PARENT_CHECK_INTERVAL_MS);
    expect(stop).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(PARENT_CHECK_INTERVAL_MS * 4);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('compares with the parent read earlier, when given (a parent gone during the build is noticed)', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    stopWhenNpmIsGone(['start'], stop, { env: { npm_lifecycle_event: 'start' }, ppid: () => 1, parent: 100 });
    vi.advanceTimersByTime(PARENT_CHECK_INTERVAL_MS);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('watches nothing for a process npm did not start, or started for another script', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    expect(stopWhenNpmIsGone(['dev'], stop, { env: {}, ppid: () => 1, parent: 100 })).toBeUndefined();
    expect(stopWhenNpmIsGone(['dev'], stop, { env: { npm_lifecycle_event: 'build' }, ppid: () => 1, parent: 100 })).toBeUndefined();
    vi.advanceTimersByTime(PARENT_CHECK_INTERVAL_MS * 4);
    expect(stop).not.toHaveBeenCalled();
  });

  it('ends the watch when asked', () => {
    vi.useFakeTimers();
    let parent = 100;
    const stop = vi.fn();
    const end = stopWhenNpmIsGone(['dev'], stop, { env: { npm_lifecycle_event: 'dev' }, ppid: () => parent });
    end?.();
    parent = 1;
    vi.advanceTimersByTime(PARENT_CHECK_INTERVAL_MS * 2);
    expect(stop).not.toHaveBeenCalled();
  });
});
