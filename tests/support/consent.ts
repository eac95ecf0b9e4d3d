/**
 * Drives the consent and claim-approval pages over plain HTTP, as a browser without JavaScript
 * would: GET the page, keep its cookie, post the form's ticket with a decision, read the 303.
 */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface FormPage {
  response: Response;
  html: string;
  ticket: string | null;
  cookie: string | null;
  action: string | null;
}

/** GETs a page with a ticket form and extracts what a browser would keep. */
export async function openFormPage(fetch: Fetch, url: string): Promise<FormPage> {
  const response = await fetch(url, { redirect: 'manual' });
  const html = await response.text();
  const setCookie = response.headers.get('set-cookie');
  return {
    response,
    html,
    ticket: /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? null,
    cookie: setCookie ? setCookie.split(';')[0]! : null,
    action: /<form class="actions" method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null,
  };
}

/** Posts the page's form with `decision`; `override` replaces what is sent (for CSRF tests). */
export async function answerFormPage(
  fetch: Fetch,
  page: FormPage,
  decision: 'approve' | 'deny',
  override: { ticket?: string; cookie?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const cookie = override.cookie === undefined ? page.cookie : override.cookie;
  return fetch(page.action!, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...override.headers },
    body: new URLSearchParams({ ticket: override.ticket ?? page.ticket!, decision }).toString(),
  });
}

/** Opens an authorization URL and answers the consent page; returns the 303 Location as a URL. */
export async function authorizeThroughConsent(
  fetch: Fetch,
  authorizationUrl: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  const page = await openFormPage(fetch, authorizationUrl);
  if (page.response.status !== 200 || !page.ticket)
    throw new Error(`consent page not shown: ${page.response.status} ${page.html.slice(0, 300)}`);
  const answer = await answerFormPage(fetch, page, decision);
  const location = answer.headers.get('location');
  if (answer.status !== 303 || !location) throw new Error(`consent answer was ${answer.status}`);
  return new URL(location);
}
