/**
 * The scheduled functions end to end in the local runtime, against fake third parties on loopback:
 * the hourly tweet refresh feeds /api/tweets, and the contact webhook retry delivers what failed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson, useFakeUpstream } from '../support/fake-upstream.ts';
import { useRuntime } from '../support/runtime.ts';

const upstream = useFakeUpstream();
beforeAll(() => {
  process.env.TWEETS_SOURCE = 'json';
  process.env.TWEETS_FEED_URL = `${upstream.url}/feed.json`;
  process.env.TWEETS_TIMEOUT_MS = '1000';
  process.env.CONTACT_WEBHOOK_URL = `${upstream.url}/hook`;
  process.env.BUILD_HOOK_URL = `${upstream.url}/build_hooks/test`;
});
const site = useRuntime();

const liveTweet = {
  id: '4242',
  text: 'A live post from the fake upstream',
  author: { name: 'Live Feed', username: 'live_feed' },
  created_at: '2026-11-21T12:00:00Z',
  url: 'https://x.com/live_feed/status/4242',
};

describe('scheduled functions in the local runtime', () => {
  it('the tweet refresh stores the upstream feed and /api/tweets serves it; a failing upstream keeps it', async () => {
    upstream.respondWith((req, _body, res) =>
      req.url === '/feed.json' ? sendJson(res, 200, { tweets: [liveTweet] }) : sendJson(res, 404, {}),
    );
    const run = await site.runtime.invokeScheduled('tweets-refresh');
    expect(run.status).toBeLessThan(300);
    const res = await site.fetchPath('/api/tweets');
    expect(res.headers.get('x-feed-source')).toBe('live');
    expect((await res.json()).tweets[0].id).toBe('4242');

    upstream.respondWith((_req, _body, res) => sendJson(res, 502, { error: 'bad gateway' }));
    await site.runtime.invokeScheduled('tweets-refresh');
    expect((await (await site.fetchPath('/api/tweets')).json()).tweets[0].id).toBe('4242');
  });

  it('publish-scheduled asks for no build while nothing the build held back is due (the test content schedules nothing)', async () => {
    const calls: string[] = [];
    upstream.respondWith((req, _body, res) => {
      calls.push(req.url ?? '');
      sendJson(res, 200, {});
    });
    const run = await site.runtime.invokeScheduled('publish-scheduled');
    expect(run.status).toBeLessThan(300);
    expect(calls).toEqual([]);
  });

  it('a scheduled function has no public URL: a client gets 404 and the function does not run', async () => {
    let upstreamCalls = 0;
    upstream.respondWith((_req, _body, res) => {
      upstreamCalls++;
      sendJson(res, 200, { tweets: [liveTweet] });
    });
    for (const name of ['tweets-refresh', 'store-sweep', 'contact-retry', 'analytics-rollup', 'publish-scheduled']) {
      for (const method of ['GET', 'POST']) {
        const answer = await site.fetchPath(`/.netlify/functions/${name}`, {
          method,
          headers: { 'user-agent': 'Netlify Clockwork', 'x-nf-event': 'schedule' },
        });
        expect(answer.status).toBe(404);
      }
    }
    expect(upstreamCalls).toBe(0);
  });

  it('an enquiry whose webhook fails is stored as pending (retried by contact-retry) and listed by `npm run enquiries`', async () => {
    upstream.respondWith((req, _body, res) => sendJson(res, req.url === '/hook' ? 503 : 404, {}));
    const post = await site.fetchPath('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.77' },
      body: JSON.stringify({ name: 'Retry Person', email: 'retry@example.com', message: 'please call' }),
    });
    expect(post.status).toBe(200);
    const { id } = await post.json();
    expect(upstream.requests.some((r) => r.url === '/hook')).toBe(true);

    const listed = JSON.parse(
      execFileSync(process.execPath, ['scripts/enquiries.ts', 'json'], {
        encoding: 'utf8',
        env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: site.runtime.blobsDir },
      }),
    ) as { id: string; notification: { status: string } }[];
    expect(listed.find((e) => e.id === id)?.notification.status).toBe('pending');
    const csv = spawnSync(process.execPath, ['scripts/enquiries.ts', 'csv'], {
      encoding: 'utf8',
      env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: site.runtime.blobsDir, TZ: 'Asia/Shanghai' },
    });
    expect(csv.stdout.split('\r\n')[0]).toBe(
      '\uFEFFid,received_at,received_local (Asia/Shanghai),name,email,company,product,product_name,message,notification',
    );
    expect(csv.stdout).toContain(`"${id}"`);
    expect(csv.stderr).toBe(`Local Blobs: ${site.runtime.blobsDir}\n${listed.length} ${listed.length === 1 ? 'enquiry' : 'enquiries'}\n`);
  });
});
