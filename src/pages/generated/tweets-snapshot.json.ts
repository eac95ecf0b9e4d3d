import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRoute } from 'astro';
import { parseTweetFeed } from '../../core/tweets/tweets.ts';

/** The build-time tweet snapshot (content/tweets.json), validated; /api/tweets serves it until a live feed is stored. */
export const GET: APIRoute = async () => {
  const file = path.join(process.env.CONTENT_DIR ?? './content', 'tweets.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: expected a JSON tweet feed ({"updated_at", "tweets": [...]})`, { cause: error });
  }
  let feed;
  try {
    feed = parseTweetFeed(raw);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  return new Response(JSON.stringify(feed), { headers: { 'content-type': 'application/json' } });
};
