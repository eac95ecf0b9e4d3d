import { describe, expect, it } from 'vitest';
import { SITE_USER_AGENT_PRODUCT, siteUserAgent } from './user-agent.ts';

describe('siteUserAgent', () => {
  it('is the product token and the origin as a comment, whatever URL of the site it is given', () => {
    expect(siteUserAgent('https://www.acme-ai.example')).toBe(`${SITE_USER_AGENT_PRODUCT} (+https://www.acme-ai.example)`);
    expect(siteUserAgent('http://localhost:8954/blog?x=1')).toBe('agent-ready-site/1 (+http://localhost:8954)');
    // A valid RFC 9110 User-Agent: product "/" version, then a comment.
    expect(siteUserAgent('https://site.example')).toMatch(/^[!#$%&'*+.^_`|~\w-]+\/[!#$%&'*+.^_`|~\w-]+ \([^()]*\)$/);
  });
});
