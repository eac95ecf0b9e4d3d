import { describe, expect, it } from 'vitest';
import { blobsStore } from '../../../netlify/functions/_shared/blobs-store.ts';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { memoryStore } from '../kernel/memory-store.ts';
import type { Store } from '../kernel/store.ts';
import { handleHealth, HEALTH_PROBE_REUSE_MS, probeStore, sharedStoreProbe } from './health.ts';

const blobs = useBlobs();
const build = { version: '1.0.0', commit: 'abc123', built_at: '2026-11-22T00:00:00.000Z' };

describe('GET /health', () => {
  it('is ok with a loaded index and reachable Blobs', async () => {
    const res = await handleHealth(new Request('http://x/health'), {
      build,
      searchDocuments: () => 21,
      probe: () => probeStore(blobs.store('ratelimit'), Date.now),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({
      status: 'ok',
      version: '1.0.0',
      commit: 'abc123',
      checks: { search_index: { ok: true, documents: 21 }, blobs: { ok: true } },
    });
  });

  it('stays ok when many checks overlap, and leaves no probe records behind', async () => {
    const store = blobs.store('ratelimit');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        handleHealth(new Request('http://x/health'), { build, searchDocuments: () => 21, probe: () => probeStore(store, Date.now) }),
      ),
    );
    const bodies = await Promise.all(answers.map((a) => a.json() as Promise<{ status: string; checks: { blobs: { error?: string } } }>));
    expect(bodies.map((b) => b.checks.blobs.error ?? b.status)).toEqual(Array(20).fill('ok'));
    expect(await store.list('health/probe')).toEqual([]);
  });

  it('is 503 degraded when Blobs cannot be reached (a real client against a closed port)', async () => {
    const unreachable = blobsStore('ratelimit', {
      siteID: 's',
      token: 't',
      edgeURL: 'http://127.0.0.1:9',
      uncachedEdgeURL: 'http://127.0.0.1:9',
    });
    const res = await handleHealth(new Request('http://x/health'), {
      build,
      searchDocuments: () => 21,
      probe: () => probeStore(unreachable, Date.now),
    });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.status).toBe('degraded');
    expect(body.checks.blobs.ok).toBe(false);
    expect(body.checks.blobs.error).toBeTruthy();
  });

  it('is 503 degraded when the search index is empty or broken', async () => {
    const empty = await handleHealth(new Request('http://x/health'), {
      build,
      searchDocuments: () => 0,
      probe: () => probeStore(blobs.store('ratelimit'), Date.now),
    });
    expect(empty.status).toBe(503);
    expect((await empty.json()).checks.search_index).toMatchObject({ ok: false, documents: 0 });
    const broken = await handleHealth(new Request('http://x/health'), {
      build,
      searchDocuments: () => {
        throw new Error('index missing');
      },
      probe: () => probeStore(blobs.store('ratelimit'), Date.now),
    });
    expect((await broken.json()).checks.search_index.error).toBe('index missing');
  });

  it('405 for POST', async () => {
    await expect(
      handleHealth(new Request('http://x/health', { method: 'POST' }), {
        build,
        searchDocuments: () => 1,
        probe: () => probeStore(blobs.store('ratelimit'), Date.now),
      }),
    ).rejects.toMatchObject({ status: 405 });
  });
});

describe('the probe per instance', () => {
  it('100 checks in a burst write once; the next write comes only after the reuse interval', async () => {
    const inner = memoryStore();
    let writes = 0;
    const counting: Store = {
      ...inner,
      set: (key, value, condition) => {
        writes++;
        return inner.set(key, value, condition);
      },
    };
    let clock = 1_000_000;
    const probe = sharedStoreProbe(
      () => counting,
      () => clock,
    );
    const check = () => handleHealth(new Request('http://x/health'), { build, searchDocuments: () => 21, probe });
    const answers = await Promise.all(Array.from({ length: 100 }, check));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(writes).toBe(1);
    clock += HEALTH_PROBE_REUSE_MS - 1;
    await check();
    expect(writes).toBe(1);
    clock += 1;
    await check();
    expect(writes).toBe(2);
  });

  it('a failed probe is reported until the next one, then the next one decides', async () => {
    let up = false;
    const inner = memoryStore();
    const flaky: Store = {
      ...inner,
      set: (key, value, condition) => (up ? inner.set(key, value, condition) : Promise.reject(new Error('Blobs down'))),
    };
    let clock = 0;
    const probe = sharedStoreProbe(
      () => flaky,
      () => clock,
    );
    const check = () => handleHealth(new Request('http://x/health'), { build, searchDocuments: () => 21, probe });
    expect((await check()).status).toBe(503);
    up = true;
    expect((await check()).status).toBe(503);
    clock += HEALTH_PROBE_REUSE_MS;
    expect((await check()).status).toBe(200);
  });
});
