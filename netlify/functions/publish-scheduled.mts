// Daily at 00:05 UTC: asks Netlify for a build when an article or solution this deploy held back for a later day is due
// (src/core/publish/scheduled-publish.ts; BUILD_HOOK_URL), so it goes live that morning without a push.
import type { Config } from '@netlify/functions';
import scheduled from '../../generated/data/scheduled.json' with { type: 'json' };
import { utcDay } from '../../src/core/content/catalog.ts';
import { publishScheduled } from '../../src/core/publish/scheduled-publish.ts';
import { now, runtimeConfig, SITE_USER_AGENT } from './_shared/deps.ts';

export default async (): Promise<void> => {
  const outcome = await publishScheduled({
    days: scheduled.days,
    today: utcDay(new Date(now())),
    buildHookUrl: runtimeConfig().buildHookUrl,
    fetch,
    userAgent: SITE_USER_AGENT,
  });
  console.log(`scheduled publication: ${JSON.stringify(outcome)}`);
};

export const config: Config = { schedule: '5 0 * * *' };
