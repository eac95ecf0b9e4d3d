/**
 * Feedback is counted wherever it arrives (POST /api/feedback, the MCP submit_feedback tool, the A2A skill), and the count
 * reaches the "Contact and feedback" section the operator reads (`npm run stats`, /ops/) through the instance's counters,
 * their write and the roll-up, as an enquiry's does.
 */
import { AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { a2aSendMessage, FIXTURE_DEPS, FIXTURE_ORIGIN, mcpRequest } from '../../../tests/support/core-fixtures.ts';
import { agentCard } from '../a2a/card.ts';
import { handleA2a } from '../a2a/server.ts';
import { reportSections, usageReport } from '../analytics/report.ts';
import { rollUp } from '../analytics/rollup.ts';
import { withErrors } from '../kernel/errors.ts';
import { memoryStore } from '../kernel/memory-store.ts';
import { Metrics, type Usage } from '../kernel/metrics.ts';
import { PROBLEM_ERRORS } from '../kernel/problem.ts';
import { handleMcp } from '../mcp/server.ts';
import { type FeedbackDeps, feedbackSink, handleFeedback } from './feedback.ts';

const T0 = Date.UTC(2026, 10, 26, 9);
const DAY = '2026-11-26';

/** The deps a function builds for one request (netlify/functions/_shared/feedback.ts), counting into `usage`. */
const feedbackDeps = (usage: Usage): FeedbackDeps => ({
  feedback: memoryStore(),
  limits: memoryStore(),
  origin: FIXTURE_ORIGIN,
  pages: FIXTURE_DEPS.catalog,
  clientNetworkDigest: async () => 'net',
  now: () => T0,
  newId: () => crypto.randomUUID(),
  usage,
});

describe('feedback in the usage report', () => {
  it('POST /api/feedback, MCP submit_feedback and A2A feedback are each counted under "Contact and feedback", by channel and kind', async () => {
    const analytics = memoryStore();
    const metrics = new Metrics({ store: () => analytics, clock: () => T0, instanceId: 'i1' });
    const usage = metrics.usage('198.51.100.0');

    const api = await withErrors(PROBLEM_ERRORS, new Request(`${FIXTURE_ORIGIN}/api/feedback`), () =>
      handleFeedback(
        new Request(`${FIXTURE_ORIGIN}/api/feedback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ page: '/blog/vector-search/', kind: 'wrong', text: 'The port is 8443.' }),
        }),
        feedbackDeps(usage),
      ),
    );
    expect(api.status).toBe(201);

    // As netlify/functions/_shared/agent-request-deps.ts wires the MCP and A2A functions: the sink counts into the request's usage.
    const mcp = await handleMcp(
      mcpRequest({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'submit_feedback', arguments: { page: `${FIXTURE_ORIGIN}/blog/vector-search/`, kind: 'helpful' } },
      }),
      { ...FIXTURE_DEPS, usage, feedback: feedbackSink('mcp', feedbackDeps(usage)) },
    );
    expect(JSON.stringify(await mcp.json())).toContain('"status\\":\\"stored');

    const card = AgentCard.fromJSON(
      agentCard({
        origin: FIXTURE_ORIGIN,
        version: '9.9.9',
        siteName: 'Acme AI',
        categorySlugs: ['rag'],
        exampleSlug: 'rag-chunking',
        exampleQuery: 'RAG',
      }),
    );
    const a2a = await handleA2a(
      a2aSendMessage([{ text: `Feedback on ${FIXTURE_ORIGIN}/blog/vector-search/: the recall figures are outdated` }]),
      { ...FIXTURE_DEPS, card, usage, feedback: feedbackSink('a2a', feedbackDeps(usage)) },
    );
    expect(JSON.stringify(await a2a.json())).toContain('"status":"stored"');

    await metrics.flushIfDue(true);
    await rollUp(analytics, { nowMs: T0 + 3_600_000, clockMs: Date.now, budgetMs: 60_000 });
    const section = reportSections(await usageReport(analytics, DAY, DAY)).find((s) => s.title === 'Contact and feedback');
    expect(section?.counts).toEqual({
      'feedback.api.wrong': 1,
      'feedback.mcp.helpful': 1,
      'feedback.a2a.outdated': 1,
    });
    expect(section?.total).toBe(3);
  });
});
