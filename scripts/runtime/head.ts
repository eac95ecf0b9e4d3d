/**
 * The HEAD answer made from the GET answer, as a CDN answers HEAD (RFC 9110 §9.3.2, §8.6): same
 * status and headers, `Content-Length` the byte length of GET's body, no body. Functions and the
 * edge function answer HEAD as GET with the body (Netlify's edge bootstrap drops lengths, and Deno
 * would send 0 for an empty body), so the length is known only here. Used by the warm runtime and
 * by the emulator the parity test compares it with.
 */
export async function headOf(response: Response): Promise<Response> {
  if (!response.body) return response;
  const length = (await response.arrayBuffer()).byteLength;
  const headers = new Headers(response.headers);
  headers.set('content-length', String(length));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}
