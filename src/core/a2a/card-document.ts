/**
 * The agent card as a public document (served at /.well-known/agent-card.json by the discovery
 * function): its version negotiation (A2A §3.6.2) and media types, each representation with its own
 * strong ETag. A2A owns it, as MCP owns its server card (mcp/server-card.ts).
 * @module
 */
import { parseAccept, qualityOf } from '../kernel/negotiation.ts';
import { type PublicDocument, publicDocument, serveDocument, strongEtag } from '../kernel/document.ts';
import { AGENT_CARD_CONTENT_TYPE, agentCard, type AgentCardSource } from './card.ts';
import { isLegacyVersion, legacyAgentCard } from './legacy.ts';
import { A2A_VERSION_HEADER, requestedVersion } from './version.ts';

/** ARD's entry type for an A2A agent card (a de-facto type; A2A itself registers none for the card). */
export const A2A_AGENT_CARD_TYPE = 'application/a2a-agent-card+json';

/**
 * The agent card's four representations: the v1.0 card, or the 0.3 clients' hybrid (a2a/legacy.ts)
 * when the request's `A2A-Version` is absent or 0.3 (A2A §3.6.2, as the SDK's card handler does it);
 * each as `application/json`, or as `application/a2a-agent-card+json` (the type the AI catalog
 * declares) to a client that asks for that type. Each has its own strong ETag.
 */
export interface AgentCardDocuments {
  v1: { json: PublicDocument; cardType: PublicDocument };
  legacy: { json: PublicDocument; cardType: PublicDocument };
}

/** Both answers vary by these request headers. */
const AGENT_CARD_VARY = `${A2A_VERSION_HEADER}, Accept`;

/** The four representations of the card written from `source`, each hashed once (callers keep the result). */
export async function agentCardDocuments(source: AgentCardSource): Promise<AgentCardDocuments> {
  const card = agentCard(source);
  const both = async (body: string) => ({
    json: await publicDocument(body, AGENT_CARD_CONTENT_TYPE, { vary: AGENT_CARD_VARY }),
    // The same bytes as another media type are another representation: an ETag of their own (RFC 9110 §8.8.3).
    cardType: {
      body,
      contentType: A2A_AGENT_CARD_TYPE,
      etag: await strongEtag(`${A2A_AGENT_CARD_TYPE}\n${body}`),
      headers: { vary: AGENT_CARD_VARY },
    },
  });
  return { v1: await both(JSON.stringify(card, null, 2)), legacy: await both(JSON.stringify(legacyAgentCard(card), null, 2)) };
}

/** The agent card representation `req` asks for. */
export function agentCardFor(req: Request, documents: AgentCardDocuments): PublicDocument {
  const variant = isLegacyVersion(requestedVersion(req)) ? documents.legacy : documents.v1;
  const card = qualityOf(A2A_AGENT_CARD_TYPE, parseAccept(req.headers.get('accept') ?? ''));
  return card.q > 0 && card.specificity === 3 ? variant.cardType : variant.json;
}

/**
 * `GET` of the agent card: the representation the request asks for, with ETag and 304 (HEAD arrives
 * as GET, OPTIONS and CORS are the edge's: kernel/handler.ts); another method gets the caller's 405.
 */
export function serveAgentCard(
  req: Request,
  documents: AgentCardDocuments,
  options: { maxAgeSeconds: number; methodNotAllowed: () => Response },
): Response {
  return serveDocument(req, agentCardFor(req, documents), options);
}
