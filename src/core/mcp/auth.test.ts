/** The export tool's gate with real tokens (tokenGate): its refusals when the per-client hourly limit answers. */
import { describe, expect, it } from 'vitest';
import { EXPORT_SCOPE } from '../agent-tools/export-article-index.ts';
import { EXPORT_RATE_LIMIT, tokenGate } from './auth.ts';

const ctx = { id: 7, origin: 'https://site.example' };
const req = new Request('https://site.example/mcp', { method: 'POST' });
const gate = (decision: { allowed: boolean; retryAfterSeconds: number; contended?: true }) =>
  tokenGate({
    check: async () => ({ kind: 'valid', clientId: 'agt_a', scopes: [EXPORT_SCOPE] }),
    consumeExport: async () => decision,
  });

async function toolError(res: Response | null) {
  const body = (await res?.json()) as { result: { isError: boolean; content: { text: string }[]; structuredContent: unknown } };
  return {
    status: res?.status,
    retryAfter: res?.headers.get('retry-after'),
    text: body.result.content[0]?.text,
    data: body.result.structuredContent,
  };
}

describe('tokenGate and the export limit', () => {
  it('within the limit: the tool runs', async () => {
    expect(await gate({ allowed: true, retryAfterSeconds: 0 })(req, ctx)).toBeNull();
  });

  it('over the limit: 429 naming the hourly allowance', async () => {
    expect(await toolError(await gate({ allowed: false, retryAfterSeconds: 1800 })(req, ctx))).toEqual({
      status: 429,
      retryAfter: '1800',
      text: `Rate limited: at most ${EXPORT_RATE_LIMIT.limit} export calls per client per hour. Retry in 1800 s.`,
      data: { error: 'rate_limited', retry_after: 1800 },
    });
  });

  it('a call the limit could not count (contention) is told busy, not that the hour is used up (s10a)', async () => {
    expect(await toolError(await gate({ allowed: false, retryAfterSeconds: 1, contended: true })(req, ctx))).toEqual({
      status: 429,
      retryAfter: '1',
      text: 'Rate limited: too many export calls counted at the same moment (busy; none of the allowance was used). Retry in 1 s.',
      data: { error: 'rate_limited', retry_after: 1 },
    });
  });
});
