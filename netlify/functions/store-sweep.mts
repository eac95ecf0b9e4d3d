// Hourly: delete expired records of the `oauth` and `ratelimit` stores through their expiry indexes (src/core/kernel/expiry.ts).
import type { Config } from '@netlify/functions';
import { sweepExpired } from '../../src/core/kernel/expiry.ts';
import { RATE_LIMIT_SWEEP_POLICY } from '../../src/core/kernel/rate-limit.ts';
import { OAUTH_SWEEP_POLICY } from '../../src/core/oauth/grants/sweep.ts';
import { stores } from './_shared/deps.ts';

/**
 * Each store's run stops starting work after this long (they run side by side), so the function
 * ends well inside Netlify's 30-second limit for scheduled functions; what is left waits an hour.
 */
const SWEEP_BUDGET_MS = 20_000;

export default async (): Promise<void> => {
  const options = { nowSeconds: Math.floor(Date.now() / 1000), clockMs: Date.now, budgetMs: SWEEP_BUDGET_MS };
  const [oauth, ratelimit] = await Promise.all([
    sweepExpired(stores('oauth'), OAUTH_SWEEP_POLICY, options),
    sweepExpired(stores('ratelimit'), RATE_LIMIT_SWEEP_POLICY, options),
  ]);
  console.log(`store sweep: ${JSON.stringify({ oauth, ratelimit })}`);
};

export const config: Config = { schedule: '@hourly' };
