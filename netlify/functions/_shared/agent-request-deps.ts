/**
 * The deps the MCP and A2A functions add for each request: the instance's usage counters and the
 * submit_feedback sink (which stores under the caller's network, so it cannot be made once).
 */
import type { Context } from '@netlify/functions';
import type { FeedbackSink } from '../../../src/core/agent-tools/submit-feedback.ts';
import { feedbackSink, type SitePages } from '../../../src/core/feedback/feedback.ts';
import { type Usage, withUsage } from '../../../src/core/kernel/metrics.ts';
import { feedbackDeps } from './feedback.ts';
import { usageOf } from './usage.ts';

/**
 * `deps` with this request's usage counters and submit_feedback sink. The sink's stores and
 * catalogue are reached on the first submit_feedback call only: most requests read.
 */
export function perRequestAgentDeps<T extends object>(
  deps: T,
  context: Context,
  channel: 'mcp' | 'a2a',
  pages: () => SitePages,
): T & { usage: Usage; feedback: FeedbackSink } {
  const usage = usageOf(context);
  let sink: FeedbackSink | undefined;
  const feedback: FeedbackSink = (input) => {
    sink ??= feedbackSink(channel, feedbackDeps(context, pages(), usage));
    return sink(input);
  };
  return Object.assign(withUsage(deps, usage), { feedback });
}
