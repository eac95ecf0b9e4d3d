// The operator's usage page behind OPS_SECRET (src/core/analytics/ops.ts); not counted in the usage it shows.
import type { Config, Context } from '@netlify/functions';
import { handleOps, OPS_EDGE } from '../../src/core/analytics/ops.ts';
import { feedbackBetween } from '../../src/core/feedback/feedback.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { clientNetworkDigest, now, runtimeConfig, stores } from './_shared/deps.ts';

export default httpHandler(
  (req: Request, context: Context) =>
    handleOps(req, {
      secret: runtimeConfig().opsSecret,
      analytics: stores('analytics'),
      limits: stores('ratelimit'),
      clientNetworkDigest: () => clientNetworkDigest(context),
      now,
      feedback: (from, to) => feedbackBetween(stores('feedback'), from, to),
    }),
  OPS_EDGE,
);

export const config: Config = { path: ['/ops', '/ops/'] };
