/**
 * mcpServerCard check: an MCP server card (SEP-1649 era, the shape the scanner reads) at one of
 * the well-known paths the scanner probes.
 * @module
 */
import { get, isJsonType, isSecureUrl, mediaType, problemWith, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

/** Probed in this order; the first valid card wins. */
export const SERVER_CARD_PATHS = [
  '/.well-known/mcp/server-card.json',
  '/.well-known/mcp.json',
  '/.well-known/mcp/server-cards.json',
] as const;

/** The MCP endpoint a card names: `transport.endpoint`, `endpoint`, or the first remote's `url`. */
function endpointOf(card: Record<string, unknown>): unknown {
  const transport = card.transport as { endpoint?: unknown } | undefined;
  const remotes = card.remotes as { url?: unknown }[] | undefined;
  return transport?.endpoint ?? card.endpoint ?? (Array.isArray(remotes) ? remotes[0]?.url : undefined);
}

/**
 * A card needs `serverInfo.name` (what the scanner keys on), `serverInfo.version` and a transport
 * endpoint that is an absolute https URL (the scanner's guide lists all three; the stricter reading
 * requires them all).
 */
export function serverCardProblem(card: unknown): string | null {
  if (!card || typeof card !== 'object' || Array.isArray(card)) return 'not a JSON object';
  const c = card as Record<string, unknown>;
  const info = c.serverInfo as Record<string, unknown> | undefined;
  if (!info || typeof info !== 'object') return 'no "serverInfo"';
  if (typeof info.name !== 'string' || !info.name) return 'no "serverInfo.name"';
  if (typeof info.version !== 'string' || !info.version) return 'no "serverInfo.version"';
  const endpoint = endpointOf(c);
  if (!isSecureUrl(endpoint))
    return `no transport endpoint URL (transport.endpoint, endpoint or remotes[0].url): ${JSON.stringify(endpoint ?? null)}`;
  return null;
}

/** `server-cards.json` may hold several cards: a bare array or `{cards: [...]}` / `{serverCards: [...]}`. */
function cardsIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of ['cards', 'serverCards']) if (Array.isArray(obj[key])) return obj[key] as unknown[];
  }
  return [value];
}

const FIX =
  'Serve /.well-known/mcp/server-card.json (application/json) with serverInfo {name, version} and transport {type:"streamable-http", endpoint:"https://…/mcp"}.';

/** mcpServerCard: any probed path answers 200 JSON holding a valid card. */
export async function checkMcpServerCard(ctx: CheckContext): Promise<Verdict> {
  const problems: string[] = [];
  for (const path of SERVER_CARD_PATHS) {
    const res = await get(ctx, path, { accept: 'application/json' });
    const problem =
      problemWith(ctx, res, 'json') ?? (isJsonType(mediaType(res)) ? null : `${summary(ctx, res)}: expected a JSON media type`);
    if (problem) {
      if (res.status !== 404 && res.status !== 410) problems.push(problem);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      problems.push(`${path}: the body is not valid JSON`); // position details do not help a one-line reason
      continue;
    }
    const cards = path.endsWith('server-cards.json') ? cardsIn(parsed) : [parsed];
    const errors = cards.map(serverCardProblem);
    const good = errors.indexOf(null);
    if (good >= 0) {
      const card = cards[good] as { serverInfo: { name: string; version: string } };
      return pass(`${path}: ${card.serverInfo.name} ${card.serverInfo.version} at ${String(endpointOf(card as Record<string, unknown>))}`);
    }
    problems.push(`${path}: ${errors[0]}`);
  }
  return fail(problems.length ? problems.join('; ') : `no MCP server card at ${SERVER_CARD_PATHS.join(', ')} (all 404)`, FIX);
}
