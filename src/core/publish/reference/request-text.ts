/**
 * The address a "Try it" form sends, written as a browser's address bar writes it: exactly the
 * percent-encoding the request carries (`q=a%26limit%3D50` is one value, not three parameters), with
 * the escapes of non-ASCII characters shown as the characters, so Chinese stays readable.
 * @module
 */

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A run of `%XX` escapes with each complete UTF-8 sequence of a non-ASCII character decoded; ASCII escapes stay. */
function readableRun(run: string): string {
  const escapes = run.match(/%[0-9A-F]{2}/gi) ?? [];
  const bytes = escapes.map((e) => Number.parseInt(e.slice(1), 16));
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (length > 1 && i + length <= bytes.length) {
      try {
        out += UTF8.decode(new Uint8Array(bytes.slice(i, i + length)));
        i += length;
        continue;
      } catch {
        // not a character: keep its escapes
      }
    }
    out += escapes[i];
    i += 1;
  }
  return out;
}

/** `GET /api/search?q=a%26b&lang=zh` for the request to `url` (path and query as encoded, non-ASCII shown as text). */
export function requestText(url: URL): string {
  return `GET ${url.pathname}${url.search.replace(/(?:%[0-9A-F]{2})+/gi, readableRun)}`;
}
