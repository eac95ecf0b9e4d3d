// Every 15 minutes: retry webhook notifications that failed; the enquiries themselves are already stored.
import type { Config } from '@netlify/functions';
import { retryNotifications, webhookNotifier } from '../../src/core/contact/contact.ts';
import { now, runtimeConfig, stores } from './_shared/deps.ts';
import { signedFetch } from './_shared/web-bot-auth.ts';

export default async (): Promise<void> => {
  const webhook = runtimeConfig().contactWebhookUrl;
  if (!webhook) return;
  const result = await retryNotifications(stores('enquiries'), webhookNotifier(webhook, signedFetch), now);
  console.log(`contact notification retry: ${JSON.stringify(result)}`);
};

export const config: Config = { schedule: '*/15 * * * *' };
