import type { Config, Context } from '@netlify/functions';
import { CONTACT_EDGE, handleContact, webhookNotifier } from '../../src/core/contact/contact.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { contactPages, productSlugs } from './_shared/contact-page.ts';
import { clientNetworkDigest, newId, now, runtimeConfig, stores } from './_shared/deps.ts';
import { signedFetch } from './_shared/web-bot-auth.ts';
import { counting, usageOf } from './_shared/usage.ts';

export default httpHandler(
  async (req: Request, context: Context) => {
    const webhook = runtimeConfig().contactWebhookUrl;
    const notify = webhook ? webhookNotifier(webhook, signedFetch) : null;
    const deps = {
      enquiries: stores('enquiries'),
      limits: stores('ratelimit'),
      clientNetworkDigest: await clientNetworkDigest(context),
      now,
      newId,
      notify,
      usage: usageOf(context),
      products: productSlugs,
    };
    return handleContact(req, deps, contactPages);
  },
  { ...CONTACT_EDGE, usage: counting('api') },
);

export const config: Config = { path: '/api/contact' };
