// Every 15 minutes: retry webhook notifications that failed; the enquiries themselves are already stored.
import type { Config } from '@netlify/functions';
import { retryNotifications, webhookNotifier } from '../../src/core/contact/contact.ts';
import { now, runtimeConfig, stores } from './_shared/deps.ts';
import { signedFetch } from './_shared/web-bot-auth.ts';

/** Stop starting deliveries after this long: each may wait 5 s for the webhook, and a scheduled function has 30 s. */
const RETRY_BUDGET_MS = 20_000;

export default async (): Promise<void> => {
  const webhook = runtimeConfig().contactWebhookUrl;
  if (!webhook) return;
  const result = await retryNotifications(stores('enquiries'), webhookNotifier(webhook, signedFetch), now, { budgetMs: RETRY_BUDGET_MS });
  console.log(`contact notification retry: ${JSON.stringify(result)}`);
};

export const config: Config = { schedule: '*/15 * * * *' };
