/**
 * What the feedback feature needs in a function (src/core/feedback): its store, the limits, the
 * site's pages and the client's network digest.
 */
import type { Context } from '@netlify/functions';
import { type FeedbackDeps, feedbackSink, type SitePages } from '../../../src/core/feedback/feedback.ts';
import type { FeedbackSink } from '../../../src/core/agent-tools/submit-feedback.ts';
import { type Usage, withUsage } from '../../../src/core/kernel/metrics.ts';
import { build, clientNetworkDigest, newId, now, stores } from './deps.ts';
import { usageOf } from './usage.ts';

/** `pages` is the function's catalogue (each function ships it: netlify.toml included_files). */
export function feedbackDeps(context: Pick<Context, 'ip'>, pages: SitePages, usage?: Usage): FeedbackDeps {
  return {
    feedback: stores('feedback'),
    limits: stores('ratelimit'),
    origin: build.origin,
    pages,
    clientNetworkDigest: () => clientNetworkDigest(context),
    now,
    newId,
    ...(usage ? { usage } : {}),
  };
}

/**
 * The MCP or A2A function's deps for one request: its instance's usage counters, and the
 * submit_feedback sink, per request because it stores under the caller's network. The sink's
 * stores and catalogue are reached on the first submit_feedback call only: most requests read.
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
