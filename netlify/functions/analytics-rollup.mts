// Hourly: merge the usage counters every instance wrote into one record per day (src/core/analytics/rollup.ts).
import type { Config } from '@netlify/functions';
import { rollUp } from '../../src/core/analytics/rollup.ts';
import { stores } from './_shared/deps.ts';

/** The run stops starting work after this long, well inside Netlify's 30-second limit for scheduled functions; the rest waits an hour. */
const ROLLUP_BUDGET_MS = 20_000;

export default async (): Promise<void> => {
  const report = await rollUp(stores('analytics'), { nowMs: Date.now(), clockMs: Date.now, budgetMs: ROLLUP_BUDGET_MS });
  console.log(`analytics roll-up: ${JSON.stringify(report)}`);
};

export const config: Config = { schedule: '@hourly' };
