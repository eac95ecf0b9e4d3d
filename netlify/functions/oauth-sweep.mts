// Daily: delete expired OAuth records (unclaimed registrations after 30 days unused, codes, claim attempts, revocations).
import type { Config } from '@netlify/functions';
import { sweepOAuthStore } from '../../src/core/oauth/grants/sweep.ts';
import { clientsStore, nowSeconds } from './_shared/oauth.ts';

export default async (): Promise<void> => {
  const counts = await sweepOAuthStore(clientsStore(), nowSeconds());
  console.log(`oauth sweep: ${JSON.stringify(counts)}`);
};

export const config: Config = { schedule: '@daily' };
