/**
 * Renders an entry's body for its page: the HTML from its body file when the store keeps it slim
 * (src/astro/content-bodies.ts), else Astro's `render()` (MDX, markdown with images). The page
 * inserts `html` as is, which is what Astro's own Content component of a markdown entry outputs.
 * @module
 */
import { render } from 'astro:content';
import { CACHE_DIR, type Heading, type LoadedEntry, slimBody } from './content-bodies.ts';

/** A rendered body: `html` to insert, or Astro's `Content` component; and its headings (the table of contents). */
export type RenderedBody =
  | { html: string; Content?: undefined; headings: Heading[] }
  | { html?: undefined; Content: Awaited<ReturnType<typeof render>>['Content']; headings: Heading[] };

/** The rendered body of `entry` (from getEntry or getCollection). */
export async function renderBody(entry: LoadedEntry): Promise<RenderedBody> {
  const slim = slimBody(entry, CACHE_DIR);
  if (slim) return { html: slim.html, headings: slim.headings };
  const { Content, headings } = await render(entry as unknown as Parameters<typeof render>[0]);
  return { Content, headings };
}
