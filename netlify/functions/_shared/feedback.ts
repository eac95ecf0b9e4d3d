/**
 * What the feedback feature needs in a function (src/core/feedback): its store, the limits, the
 * site's pages and the client's network digest.
 */
import type { Context } from '@netlify/functions';
import type { FeedbackDeps, SitePages } from '../../../src/core/feedback/feedback.ts';
import type { Usage } from '../../../src/core/kernel/metrics.ts';
import { build, clientNetworkDigest, newId, now, stores } from './deps.ts';

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
