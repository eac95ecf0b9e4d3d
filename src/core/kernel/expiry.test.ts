import { describe, expect, it } from 'vitest';
import { EXPIRY_INDEX_PREFIX, expiryIndexKey, setExpiring, type SweepPolicy, sweepExpired, utcDay } from './expiry.ts';
import { memoryStore } from './memory-store.ts';
import { consume, RATE_LIMIT_SWEEP_POLICY } from './rate-limit.ts';
import type { Store } from './store.ts';

const NOW = 1_800_000_000;
const DAY = 86_400;
/** Records shaped `{ end }`, legacy ones under `old/`. */
const POLICY: SweepPolicy = {
  expiresAt: (_key, value) => (value as { end?: number }).end ?? null,
  legacyPrefixes: ['old/'],
};

/** A clock that advances `stepMs` every time it is read: a run's budget is spent after budget / step reads. */
function steppingClock(stepMs: number): () => number {
  let ms = 0;
  return () => (ms += stepMs);
}

const run = (store: Store, now: number, budgetMs = 60_000, clockMs: () => number = Date.now) =>
  sweepExpired(store, POLICY, { nowSeconds: now, clockMs, budgetMs });

describe('setExpiring', () => {
  it('writes the index entry under the UTC day the record ends, then the record with its condition', async () => {
    const store = memoryStore();
    expect((await setExpiring(store, 'r/1', { end: NOW }, NOW, { onlyIfNew: true })).modified).toBe(true);
    expect((await setExpiring(store, 'r/1', { end: NOW }, NOW, { onlyIfNew: true })).modified).toBe(false);
    expect(await store.list(EXPIRY_INDEX_PREFIX)).toEqual([`expires/${utcDay(NOW)}/r/1`]);
    expect(utcDay(NOW)).toBe('2027-01-15');
  });
});

describe('sweepExpired', () => {
  it('costs nothing for live records: only the entries of past days are read', async () => {
    const store = memoryStore();
    for (let i = 0; i < 50; i++) await setExpiring(store, `live/${i}`, { end: NOW + 30 * DAY }, NOW + 30 * DAY);
    await setExpiring(store, 'gone/1', { end: NOW - 10 }, NOW - 10);
    let reads = 0;
    const counting: Store = {
      ...store,
      get: (key) => {
        reads++;
        return store.get(key);
      },
      listPages: store.listPages!,
    };
    const report = await run(counting, NOW + DAY);
    expect(report.deleted).toEqual({ gone: 1 });
    // The state record, the one expired record (and the first-run read of the state): not the 50 live ones.
    expect(reads).toBeLessThanOrEqual(3);
  });

  it('drops an entry whose record is gone, and keeps a record with no end', async () => {
    const store = memoryStore();
    await store.set(expiryIndexKey('ghost/1', NOW - DAY), 0);
    await setExpiring(store, 'kept/1', { note: 'no end' }, NOW - DAY);
    const report = await run(store, NOW);
    expect(report).toMatchObject({ orphans: 1, deleted: {}, done: true });
    expect(await store.get('kept/1')).not.toBeNull();
    expect(await store.list(EXPIRY_INDEX_PREFIX)).toEqual([]);
  });

  it('a run stops when its budget is spent and the next one goes on where it stopped', async () => {
    const store = memoryStore();
    for (let i = 0; i < 200; i++) await setExpiring(store, `gone/${String(i).padStart(3, '0')}`, { end: NOW - DAY }, NOW - DAY);
    // Each clock read costs 10 ms of a 100 ms budget: a few batches of 16 per run.
    const first = await run(store, NOW, 100, steppingClock(10));
    expect(first.done).toBe(false);
    const removed = first.deleted.gone ?? 0;
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThan(200);
    let total = removed;
    let runs = 1;
    for (;;) {
      const next = await run(store, NOW, 100, steppingClock(10));
      total += next.deleted.gone ?? 0;
      runs++;
      if (next.done) break;
      expect(runs).toBeLessThan(100);
    }
    expect(total).toBe(200);
    expect(await store.list('gone/')).toEqual([]);
  });

  it('indexes legacy records once (resumable), deleting those already ended', async () => {
    const store = memoryStore();
    for (let i = 0; i < 40; i++) await store.set(`old/${String(i).padStart(2, '0')}`, { end: i % 2 ? NOW - 1 : NOW + DAY });
    let runs = 0;
    let backfilled = 0;
    for (;;) {
      const report = await run(store, NOW, 50, steppingClock(10));
      backfilled += report.backfilled;
      runs++;
      if (report.done || runs > 50) break;
    }
    expect(runs).toBeGreaterThan(1);
    expect(backfilled).toBe(40);
    expect((await store.list('old/')).length).toBe(20);
    expect((await store.list(EXPIRY_INDEX_PREFIX)).length).toBe(20);
    expect((await run(store, NOW + 2 * DAY)).deleted).toEqual({ old: 20 });
  });
});

describe('rate-limit windows', () => {
  it('a window writes one index entry per key and day, and the sweep removes windows that ended', async () => {
    const store = memoryStore();
    const rule = { limit: 5, windowSeconds: 60 };
    for (let i = 0; i < 5; i++) await consume(store, 'contact/a', rule, NOW * 1000 + i * 61_000);
    await consume(store, 'contact/b', rule, NOW * 1000);
    expect((await store.list(EXPIRY_INDEX_PREFIX)).sort()).toEqual([
      expiryIndexKey('contact/a', NOW + 60),
      expiryIndexKey('contact/b', NOW + 60),
    ]);
    const report = await sweepExpired(store, RATE_LIMIT_SWEEP_POLICY, { nowSeconds: NOW + DAY, clockMs: Date.now, budgetMs: 60_000 });
    expect(report.deleted).toEqual({ contact: 2 });
    expect(await store.list('contact/')).toEqual([]);
  });
});

describe('a record that does not parse', () => {
  it('is skipped and logged; the run finishes the day and every other record is swept', async () => {
    const inner = memoryStore();
    await setExpiring(inner, 'gone/1', { end: NOW - DAY }, NOW - DAY);
    await setExpiring(inner, 'gone/2', { end: NOW - DAY }, NOW - DAY);
    const store: Store = {
      ...inner,
      listPages: inner.listPages!,
      get: (key) => (key === 'gone/1' ? Promise.reject(new SyntaxError('Unexpected token')) : inner.get(key)),
    };
    const logged: string[] = [];
    const report = await sweepExpired(store, POLICY, { nowSeconds: NOW, clockMs: Date.now, budgetMs: 60_000, log: (l) => logged.push(l) });
    expect(report).toMatchObject({ unreadable: 1, deleted: { gone: 1 }, done: true });
    expect(logged).toEqual([expect.stringContaining('gone/1')]);
    expect(await inner.get('gone/1')).not.toBeNull();
  });
});

describe('sweepExpired, step by step', () => {
  it('walks every past day in order, leaves today alone, and saves where it is', async () => {
    const store = memoryStore();
    await setExpiring(store, 'gone/a', { end: NOW - 3 * DAY }, NOW - 3 * DAY);
    await setExpiring(store, 'gone/b', { end: NOW - DAY }, NOW - DAY);
    await setExpiring(store, 'later/c', { end: NOW + 10 }, NOW + 10);
    const report = await run(store, NOW);
    expect(report).toEqual({
      deleted: { gone: 2 },
      reindexed: 0,
      orphans: 0,
      unreadable: 0,
      backfilled: 0,
      done: true,
      nextDay: utcDay(NOW),
    });
    expect(await store.list(EXPIRY_INDEX_PREFIX)).toEqual([expiryIndexKey('later/c', NOW + 10)]);
    expect((await store.get('sweep/state'))?.value).toEqual({ day: utcDay(NOW), backfill: 'done' });
    // The next day, the record that ended today goes.
    expect((await run(store, NOW + DAY)).deleted).toEqual({ later: 1 });
  });

  it('an empty store starts at today and is done at once', async () => {
    const store = memoryStore();
    expect(await run(store, NOW)).toMatchObject({ done: true, nextDay: utcDay(NOW), deleted: {} });
  });

  it('a record whose end moved is indexed again under its new day; one ending exactly now goes', async () => {
    const store = memoryStore();
    await setExpiring(store, 'moved/1', { end: NOW + 5 * DAY }, NOW - DAY);
    await setExpiring(store, 'now/1', { end: NOW }, NOW - DAY);
    const report = await run(store, NOW);
    expect(report).toMatchObject({ reindexed: 1, deleted: { now: 1 } });
    expect(await store.list(EXPIRY_INDEX_PREFIX)).toEqual([expiryIndexKey('moved/1', NOW + 5 * DAY)]);
    expect(await store.get('moved/1')).not.toBeNull();
  });

  it('a key without a slash is counted under its whole name', async () => {
    const store = memoryStore();
    await setExpiring(store, 'flat', { end: NOW - DAY }, NOW - DAY);
    expect((await run(store, NOW)).deleted).toEqual({ flat: 1 });
  });

  it('works on a store without listPages, one page of everything', async () => {
    const inner = memoryStore();
    await setExpiring(inner, 'gone/1', { end: NOW - DAY }, NOW - DAY);
    await inner.set('old/1', { end: NOW - 1 });
    const { listPages: _pages, ...rest } = inner;
    const report = await run(rest as Store, NOW);
    expect(report).toMatchObject({ deleted: { gone: 1, old: 1 }, backfilled: 1, done: true });
  });

  it('says what it skipped, for thrown values that are not errors too, by default on the console', async () => {
    const inner = memoryStore();
    await setExpiring(inner, 'bad/1', { end: NOW - DAY }, NOW - DAY);
    const store: Store = { ...inner, get: (key) => (key === 'bad/1' ? Promise.reject('not json') : inner.get(key)) };
    const warned: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args.join(' '));
    try {
      await sweepExpired(store, POLICY, { nowSeconds: NOW, clockMs: Date.now, budgetMs: 60_000 });
    } finally {
      console.warn = original;
    }
    expect(warned).toEqual(['sweep: skipped bad/1: not json']);
  });

  it('a legacy record that cannot be read is counted and left; the backfill goes on', async () => {
    const inner = memoryStore();
    await inner.set('old/1', { end: NOW - 1 });
    await inner.set('old/2', { end: NOW - 1 });
    const store: Store = { ...inner, get: (key) => (key === 'old/1' ? Promise.reject(new Error('broken')) : inner.get(key)) };
    const report = await sweepExpired(store, POLICY, { nowSeconds: NOW, clockMs: Date.now, budgetMs: 60_000, log: () => {} });
    expect(report).toMatchObject({ unreadable: 1, backfilled: 2, deleted: { old: 1 }, done: true });
    expect(await inner.get('old/1')).not.toBeNull();
  });

  it('a budget spent before it starts does nothing and is not done', async () => {
    const store = memoryStore();
    await setExpiring(store, 'gone/1', { end: NOW - DAY }, NOW - DAY);
    const report = await run(store, NOW, 0, steppingClock(1));
    expect(report.done).toBe(false);
    expect(report.deleted).toEqual({});
    expect(await store.get('gone/1')).not.toBeNull();
  });

  it('utcDay and the index key', () => {
    expect(utcDay(0)).toBe('1970-01-01');
    expect(utcDay(86_399)).toBe('1970-01-01');
    expect(utcDay(86_400)).toBe('1970-01-02');
    expect(expiryIndexKey('a/b', 86_400)).toBe('expires/1970-01-02/a/b');
  });
});
