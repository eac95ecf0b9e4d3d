/**
 * Serves the discovery documents: the API catalog, the AI catalog (two paths, same bytes), the
 * skills index and each SKILL.md, and the A2A agent card. All are rendered once per deploy from the
 * site profile and config, hashed once, and answered with CORS open, a cache lifetime, ETag and 304.
 * @module
 */
import type { AgentCardSource } from '../a2a/card.ts';
import { type AgentCardDocuments, agentCardDocuments, serveAgentCard } from '../a2a/card-document.ts';
import type { SiteProfile } from '../content/catalog.ts';
import { PUBLIC_DOCUMENT_EDGE, PUBLIC_DOCUMENT_METHODS, type PublicDocument, publicDocument, serveDocument } from '../kernel/document.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { methodNotAllowed as wrongMethod, notFound, PROBLEM_ERRORS, problemResponse } from '../kernel/problem.ts';
import { paths } from '../kernel/paths.ts';
import { agentSkillsIndex, legacySkillsIndex, renderSkills, SKILL_CONTENT_TYPE } from './agent-skills.ts';
import { aiCatalog } from './ai-catalog.ts';
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

/** Every discovery document by path but the agent card, which varies by request (a2a/card-document.ts). */
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

interface Served {
  documents: Map<string, PublicDocument>;
  agentCard: AgentCardDocuments;
}

/** Every document of `deps`, rendered and hashed together (both fail together: no rejection left unheard). */
async function servedDocuments(deps: DiscoveryDeps): Promise<Served> {
  const card = async () => agentCardDocuments(agentCardSource(deps));
  const [documents, agentCard] = await Promise.all([discoveryDocuments(deps), card()]);
  return { documents, agentCard };
}

let cached: { deps: DiscoveryDeps; served: Promise<Served> } | undefined;

/** The edge of the discovery documents: public documents, a failure a logged 500 problem. */
export const DISCOVERY_EDGE: EdgeOptions = { ...PUBLIC_DOCUMENT_EDGE, errors: PROBLEM_ERRORS };

/** `GET`/`HEAD` of a discovery path (OPTIONS is the edge's); an unknown path under the function's routes is a 404 problem. */
export async function handleDiscovery(req: Request, deps: DiscoveryDeps): Promise<Response> {
  if (cached?.deps !== deps) {
    const entry = { deps, served: servedDocuments(deps) };
    // A failure is answered (the edge's logged 500) and not kept: the next request renders again.
    entry.served.catch(() => {
      if (cached === entry) cached = undefined;
    });
    cached = entry;
  }
  const { documents, agentCard } = await cached.served;
  const pathname = new URL(req.url).pathname;
  const methodNotAllowed = () => problemResponse(wrongMethod(PUBLIC_DOCUMENT_METHODS), pathname);
  if (pathname === paths.agentCard) return serveAgentCard(req, agentCard, { maxAgeSeconds: DISCOVERY_MAX_AGE_SECONDS, methodNotAllowed });
  const doc = documents.get(pathname);
  if (!doc) {
    return problemResponse(
      notFound(`Nothing is published at ${pathname}. The discovery documents are listed in ${paths.apiCatalog} and ${paths.llms}.`),
      pathname,
    );
  }
  return serveDocument(req, doc, { maxAgeSeconds: DISCOVERY_MAX_AGE_SECONDS, methodNotAllowed });
}
