/**
 * Feedback through the HTTP runtime: `POST /api/feedback` as an agent (JSON) and as a reader's form
 * without JavaScript, stored in the local Blobs server and read back by `npm run feedback`.
 */
import { describe, expect, it } from 'vitest';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();

describe('POST /api/feedback', () => {
  it('stores a JSON report (201), sends a form back to its page (303), refuses another site (400 naming page)', async () => {
    const json = await site.fetchPath('/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.30' },
      body: JSON.stringify({ page: '/blog/mcp-oauth-agent-integrations/', kind: 'outdated', text: 'The SDK is at 2.4 now.' }),
    });
    expect(json.status).toBe(201);
    expect(await json.json()).toMatchObject({ status: 'stored', page: '/blog/mcp-oauth-agent-integrations', kind: 'outdated' });

    const form = await site.fetchPath('/api/feedback', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'x-forwarded-for': '198.51.100.31' },
      body: 'page=%2Fblog%2Frag-chunking-recall-optimization-zh&kind=helpful',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/blog/rag-chunking-recall-optimization-zh#feedback-sent');

    const elsewhere = await site.fetchPath('/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page: 'https://evil.example/', kind: 'helpful' }),
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ invalid_params: [{ name: 'page' }] });

    // Only pages of the built site: the function reads its catalogue (netlify.toml included_files).
    const notAPage = await site.fetchPath('/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.32' },
      body: JSON.stringify({ page: '/blog/no-such-article', kind: 'helpful' }),
    });
    expect(notAPage.status).toBe(400);
    expect(await notAPage.json()).toMatchObject({
      invalid_params: [{ name: 'page', reason: expect.stringContaining('an article, solution') }],
    });

    const repeated = await site.fetchPath('/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.33' },
      body: 'page=%2Fblog%2Fmcp-oauth-agent-integrations&kind=helpful&page=%2F',
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({ invalid_params: [{ name: 'page', reason: 'page is repeated' }] });
  });
});
