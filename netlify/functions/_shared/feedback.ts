/** What the feedback feature needs in a function (src/core/feedback): its store, the limits and the client's network digest. */
import type { Context } from '@netlify/functions';
import type { FeedbackDeps } from '../../../src/core/feedback/feedback.ts';
import type { Usage } from '../../../src/core/kernel/metrics.ts';
import { build, clientNetworkDigest, newId, now, stores } from './deps.ts';

export function feedbackDeps(context: Pick<Context, 'ip'>, usage?: Usage): FeedbackDeps {
  return {
    feedback: stores('feedback'),
    limits: stores('ratelimit'),
    origin: build.origin,
    clientNetworkDigest: () => clientNetworkDigest(context),
    now,
    newId,
    ...(usage ? { usage } : {}),
  };
}
