/** The host names Netlify serves this site under, besides its configured origin. */
import type { Context } from '@netlify/functions';

/** Whether `host` is one of this site's Netlify names: `<name>.netlify.app`, `<deploy|branch>--<name>.netlify.app`, or its URL. */
export function isNetlifySiteHost(context: Pick<Context, 'site'> | undefined): (host: string) => boolean {
  const name = context?.site?.name?.toLowerCase();
  const siteHost = context?.site?.url ? new URL(context.site.url).host.toLowerCase() : undefined;
  return (host) => host === siteHost || (!!name && (host === `${name}.netlify.app` || host.endsWith(`--${name}.netlify.app`)));
}
