/**
 * `get_company_info`: profile, contact channels and key resources (absolute URLs).
 * @module
 */
import * as v from 'valibot';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { linkTo } from './reading.ts';
import { defineTool, type ToolContext } from './tool.ts';

/** Resources every answer lists, whatever the company file says (the catalogue's own entries win on the same URL). */
export function standardResources(entryPoints: ToolContext['entryPoints']): { title: string; url: string; description: string }[] {
  return [
    ...entryPoints.map((e) => ({ title: e.title, url: e.path, description: e.description })),
    { title: 'Blog', url: paths.blog, description: 'Technical articles in English and Chinese.' },
  ];
}

const Resource = v.object({ title: v.string(), url: v.string(), description: v.string() });

export const GetCompanyInfoInput = v.strictObject({});

export const GetCompanyInfoOutput = v.object({
  name: v.string(),
  name_zh: v.string(),
  legal_name: v.string(),
  tagline: v.string(),
  description: v.string(),
  description_zh: v.string(),
  founded: v.number(),
  headquarters: v.string(),
  website: v.string(),
  attribution: v.string(),
  contact: v.array(v.object({ kind: v.string(), label: v.string(), value: v.string(), url: v.optional(v.string()) })),
  resources: v.array(Resource),
});

export const getCompanyInfo = defineTool({
  name: 'get_company_info',
  title: 'Get company information',
  description:
    'The company profile (names, description, founding year, headquarters), the contact channels it lists (each with its kind, label and value, and a URL where there is one) ' +
    'and key resources for agents with absolute URLs (llms.txt, API reference, OpenAPI, authorization guide, blog). Takes no arguments.',
  input: GetCompanyInfoInput,
  output: GetCompanyInfoOutput,
  run(_args, { site, origin, entryPoints }) {
    const { company } = site;
    const resources = [...company.key_resources];
    for (const standard of standardResources(entryPoints)) if (!resources.some((r) => r.url === standard.url)) resources.push(standard);
    return {
      ok: true,
      data: {
        name: company.name,
        name_zh: company.name_zh,
        legal_name: company.legal_name,
        tagline: company.tagline,
        description: company.description,
        description_zh: company.description_zh,
        founded: company.founded,
        headquarters: company.headquarters,
        website: absoluteUrl(origin, paths.home),
        attribution: company.operator_attribution,
        contact: company.contact.map((c) => ({ kind: c.kind, label: c.label, value: c.value, ...(c.url ? { url: c.url } : {}) })),
        resources: resources.map((r) => ({ title: r.title, url: absoluteUrl(origin, r.url), description: r.description })),
      },
    };
  },
  read(info, { origin }) {
    const links = [linkTo(info.name, info.website, origin), ...info.resources.map((r) => ({ title: r.title, url: r.url }))];
    const text = [
      `# ${info.name}`,
      '',
      `${info.tagline} ${info.description}`,
      '',
      `Website: ${info.website}`,
      '',
      '## Contact',
      ...info.contact.map((c) => `- ${c.label}: ${c.value}`),
      '',
      '## Resources',
      ...info.resources.map((r) => `- [${r.title}](${r.url})`),
    ].join('\n');
    return { text, links };
  },
});
