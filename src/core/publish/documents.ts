/**
 * Serves the discovery documents: the API catalog, the AI catalog (two paths, same bytes), the
 * skills index and each SKILL.md, and the A2A agent card. All are rendered once per deploy from the
 * site profile and config, hashed once, and answered with CORS open, a cache lifetime, ETag and 304.
 * @module
 */
import { AGENT_CARD_CONTENT_TYPE, agentCard, type AgentCardSource } from '../a2a/card.ts';
import { isLegacyVersion, legacyAgentCard } from '../a2a/legacy.ts';
import { A2A_VERSION_HEADER, requestedVersion } from '../a2a/version.ts';
import { parseAccept, qualityOf } from '../kernel/negotiation.ts';
import type { SiteProfile } from '../content/catalog.ts';
import {
  PUBLIC_DOCUMENT_EDGE,
  PUBLIC_DOCUMENT_METHODS,
  type PublicDocument,
  publicDocument,
  serveDocument,
  strongEtag,
} from '../kernel/document.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { methodNotAllowed, notFound, PROBLEM_ERRORS, problemResponse } from '../kernel/problem.ts';
import { paths } from '../kernel/paths.ts';
import { agentSkillsIndex, legacySkillsIndex, renderSkills, SKILL_CONTENT_TYPE } from './agent-skills.ts';
import { A2A_AGENT_CARD_TYPE, aiCatalog } from './ai-catalog.ts';
import { API_CATALOG_CONTENT_TYPE, apiCatalog } from './api-catalog.ts';

/** Fixed for a deploy; an hour of caching, revalidated cheaply by ETag. */
export const DISCOVERY_MAX_AGE_SECONDS = 3600;

/** RFC 9727 §4: the catalog's own `HEAD`/`GET` answers carry `rel="api-catalog"`. */
const API_CATALOG_LINK = `<${paths.apiCatalog}>; rel="api-catalog"`;

export interface DiscoveryDeps {
  origin: string;
  version: string;
  site: Pick<SiteProfile, 'company' | 'categories' | 'products' | 'exampleArticleSlug'>;
}

/** What the agent skills and the A2A agent card are written from: the site profile's facts. */
export function agentCardSource(deps: DiscoveryDeps): AgentCardSource {
  const { origin, version, site } = deps;
  const siteName = site.company.name;
  return {
    origin,
    version,
    siteName,
    categorySlugs: site.categories.map((c) => c.slug),
    exampleSlug: site.exampleArticleSlug,
    exampleQuery: site.categories[0]?.name ?? siteName,
    siteNameZh: site.company.name_zh,
    exampleQueryZh: site.categories[0]?.name_zh ?? site.company.name_zh,
  };
}

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

async function agentCardDocuments(source: AgentCardSource): Promise<AgentCardDocuments> {
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

/** Every discovery document by path (the agent card, which varies by request, is {@link agentCardFor}). */
export async function discoveryDocuments(deps: DiscoveryDeps): Promise<Map<string, PublicDocument>> {
  const { origin, version, site } = deps;
  const siteName = site.company.name;
  const categoryNames = site.categories.map((c) => c.name);
  const source = agentCardSource(deps);
  const skills = await renderSkills(source);
  const aiCatalogJson = JSON.stringify(
    aiCatalog({ origin, version, company: site.company, categoryNames, productNames: site.products.map((p) => p.name) }),
    null,
    2,
  );
  const aiCatalogDoc = await publicDocument(aiCatalogJson, 'application/json; charset=utf-8');
  const entries: [string, PublicDocument][] = [
    [
      paths.apiCatalog,
      await publicDocument(JSON.stringify(apiCatalog(origin, siteName), null, 2), API_CATALOG_CONTENT_TYPE, { link: API_CATALOG_LINK }),
    ],
    [paths.aiCatalog, aiCatalogDoc],
    [paths.ard, aiCatalogDoc],
    [paths.agentSkills, await publicDocument(JSON.stringify(agentSkillsIndex(origin, skills), null, 2), 'application/json; charset=utf-8')],

    [paths.legacySkills, await publicDocument(JSON.stringify(legacySkillsIndex(skills), null, 2), 'application/json; charset=utf-8')],
    ...(await Promise.all(
      skills.flatMap((s) =>
        [s.path, paths.legacySkill(s.name)].map(
          async (path): Promise<[string, PublicDocument]> => [path, await publicDocument(s.markdown, SKILL_CONTENT_TYPE)],
        ),
      ),
    )),
  ];
  return new Map(entries);
}

let cached: { deps: DiscoveryDeps; documents: Promise<Map<string, PublicDocument>>; agentCard: Promise<AgentCardDocuments> } | undefined;

/** The edge of the discovery documents: public documents, a failure a logged 500 problem. */
export const DISCOVERY_EDGE: EdgeOptions = { ...PUBLIC_DOCUMENT_EDGE, errors: PROBLEM_ERRORS };

/** `GET`/`HEAD` of a discovery path (OPTIONS is the edge's); an unknown path under the function's routes is a 404 problem. */
export async function handleDiscovery(req: Request, deps: DiscoveryDeps): Promise<Response> {
  if (cached?.deps !== deps) cached = { deps, documents: discoveryDocuments(deps), agentCard: agentCardDocuments(agentCardSource(deps)) };
  const pathname = new URL(req.url).pathname;
  const doc = pathname === paths.agentCard ? agentCardFor(req, await cached.agentCard) : (await cached.documents).get(pathname);
  if (!doc) {
    return problemResponse(
      notFound(`Nothing is published at ${pathname}. The discovery documents are listed in ${paths.apiCatalog} and ${paths.llms}.`),
      pathname,
    );
  }
  return serveDocument(req, doc, {
    maxAgeSeconds: DISCOVERY_MAX_AGE_SECONDS,
    methodNotAllowed: () => problemResponse(methodNotAllowed(PUBLIC_DOCUMENT_METHODS), pathname),
  });
}
