/**
 * The markdown twin of `/docs/api`: the same reference as the HTML page (groups, parameters,
 * schemas as nested lists, an example of every response, curl / JavaScript / Python requests).
 * @module
 */
import type { ApiReference, ReferenceOperation, SchemaNode } from './reference.ts';
import { SNIPPET_LANGUAGES } from './snippets.ts';
import { REFERENCE_LABELS } from './labels.ts';
import { tryItFields, tryItRequest } from './try-it.ts';

const L = REFERENCE_LABELS;

/** Does a schema node have anything nested to show (fields, array items, variants)? */
const hasChildren = (node: SchemaNode): boolean => Boolean(node.fields?.length || node.items || node.variants?.length);

/**
 * A schema as the HTML page draws it (SchemaTree.astro), in the same order and words: each field as
 * `name type required: description`, its constraints, then what it nests; array items after
 * "Each item"; alternatives after "One of".
 */
export function schemaMarkdown(node: SchemaNode, indent = ''): string[] {
  const lines: string[] = [];
  for (const field of node.fields ?? []) {
    const description = field.node.description ? `: ${field.node.description}` : '';
    lines.push(`${indent}- \`${field.name}\` ${field.node.type}${field.required ? ` ${L.required}` : ''}${description}`);
    if (field.node.constraints.length) lines.push(`${indent}  ${field.node.constraints.join(' · ')}`);
    if (hasChildren(field.node))
      lines.push(...schemaMarkdown(field.node.fields ? field.node : { ...field.node, fields: undefined }, `${indent}  `));
  }
  if (!node.fields && node.items) lines.push(`${indent}${L.itemsAre}: ${node.items.type}`, '', ...schemaMarkdown(node.items, indent));
  if (node.variants?.length) {
    lines.push(`${indent}${L.oneOf}:`, '');
    for (const variant of node.variants) {
      lines.push(`${indent}- ${variant.title}${variant.node.description ? ` — ${variant.node.description}` : ''}`);
      lines.push(...schemaMarkdown(variant.node, `${indent}  `));
    }
  }
  return lines;
}

/** One operation in the whole reference: `### METHOD /path`, its summary, then {@link operationDetailsMarkdown}. */
function operationMarkdown(op: ReferenceOperation, curlOnly: boolean): string[] {
  return [`### ${op.method} ${op.path}`, '', `**${op.summary}**`, '', ...operationDetailsMarkdown(op, '####', { curlOnly })];
}

const PARAMETER_TITLES: Record<string, string> = {
  query: L.queryParameters,
  header: L.headerParameters,
  path: L.pathParameters,
  cookie: L.cookieParameters,
};

/** A response as the page's response list draws it (ResponseList.astro): status, meaning, headers, each body, schema and example. */
function responseMarkdown(op: ReferenceOperation, r: ReferenceOperation['responses'][number]): string[] {
  const lines = [`- **${r.status}** ${r.description}`];
  if (r.headers.length) {
    lines.push('', `  ${L.headers}`, '');
    for (const h of r.headers) lines.push(`  - \`${h.name}\`${h.example !== undefined ? ` \`${h.example}\`` : ''}: ${h.description}`);
  }
  if (r.bodies.length === 0) lines.push('', `  ${L.noBody}`);
  for (const body of r.bodies) {
    lines.push('', `  ${L.body} \`${body.mediaType}\``, '');
    if (body.mediaType === 'text/html') {
      lines.push(`  ${L.bodyIsPage}`);
      continue;
    }
    const earlier = op.responses.find((o) =>
      o.bodies.some((b) => b.mediaType === body.mediaType && JSON.stringify(b.node) === JSON.stringify(body.node)),
    );
    if (earlier && earlier.status !== r.status) lines.push(`  ${L.sameSchema} ${earlier.status}.`);
    else lines.push(...schemaMarkdown(body.node, '  '));
    if (body.example !== undefined)
      lines.push('', `  ${L.example}`, '', '  ```', ...body.example.split('\n').map((l) => `  ${l}`), '  ```');
  }
  lines.push('');
  return lines;
}

/**
 * An operation's facts below its title, in the order and words of its HTML page (Operation.astro):
 * description, authentication, parameters by location, request body, responses, then the requests in
 * three languages, or in curl alone (`options.curlOnly`, as the one-page reference shows them), and with
 * `options.tryIt` the operation page's "Try it" form in words. `heading` is the level of the section headings (`##` on
 * the operation's twin).
 */
export function operationDetailsMarkdown(
  op: ReferenceOperation,
  heading = '##',
  options: { curlOnly?: boolean; tryIt?: boolean } = {},
): string[] {
  const lines = [op.description, '', `${heading} ${L.authentication}`, ''];
  if (op.auth.length) lines.push(...op.auth.map((a) => `- ${a}`), '');
  else lines.push(L.noAuth, '');
  for (const location of [...new Set(op.parameters.map((p) => p.in))]) {
    lines.push(`${heading} ${PARAMETER_TITLES[location] ?? location}`, '');
    for (const p of op.parameters.filter((x) => x.in === location)) {
      lines.push(`- \`${p.name}\` ${p.node.type}${p.required ? ` ${L.required}` : ''}${p.description ? `: ${p.description}` : ''}`);
      if (p.node.constraints.length) lines.push(`  ${p.node.constraints.join(' · ')}`);
      if (p.example !== undefined) lines.push(`  ${L.example}: \`${p.example}\``);
    }
    lines.push('');
  }
  if (op.requestBody) {
    lines.push(
      `${heading} ${L.requestBody}`,
      '',
      `${op.requestBody.mediaTypes.map((t) => `\`${t}\``).join(' · ')}${op.requestBody.required ? ` ${L.required}` : ''}`,
      '',
    );
    const fields = schemaMarkdown(op.requestBody.node);
    if (fields.length) lines.push(...fields, '');
  }
  lines.push(`${heading} ${L.responses}`, '');
  for (const r of op.responses) lines.push(...responseMarkdown(op, r));
  lines.push(`${heading} ${L.exampleRequest}`, '');
  for (const request of op.requests) {
    if (request.title) lines.push(request.title, '');
    for (const language of SNIPPET_LANGUAGES)
      if (!options.curlOnly || language.id === 'curl') lines.push(`\`\`\`${language.code}`, request.snippets[language.id], '```', '');
  }
  if (options.tryIt && op.tryable) lines.push(...tryItMarkdown(op, heading));
  return lines;
}

/** The operation page's "Try it" form in words (TryIt.astro): its fields and the request it sends as first filled. */
function tryItMarkdown(op: ReferenceOperation, heading: string): string[] {
  const fields = tryItFields(op);
  return [
    `${heading} ${L.tryIt}`,
    '',
    L.tryItLead,
    '',
    ...fields.map((f) => `- \`${f.name}\`${f.required ? ` ${L.required}` : ''}`),
    ...(fields.length ? [''] : []),
    `${L.send}: \`${tryItRequest(op, fields)}\``,
    '',
  ];
}

/**
 * The whole twin; `entryPoints` is the markdown list of agent entry points that ends it, and
 * `operationUrl` the URL of an operation's own page (its twin is that URL + `.md`). With `curlOnly`
 * (the one-page reference, which shows curl alone) each request is in curl only: the three languages
 * would take the twin past 100,000 characters, which AFDocs' page-size-markdown check and Claude Code
 * cut; each operation's own twin has all three.
 */
export function apiReferenceMarkdown(
  reference: ApiReference,
  meta: {
    pageUrl: string;
    openApiUrl: string;
    entryPoints: string;
    operationUrl: (slug: string) => string;
    /** The overview's twin, which the one-page reference links as "Overview". */
    overviewUrl?: string;
    curlOnly?: boolean;
  },
): string {
  const curlOnly = meta.curlOnly ?? false;
  const lines = [
    `# ${reference.title}`,
    '',
    `> ${reference.description}`,
    '',
    `- URL: ${meta.pageUrl}`,
    // The page's list, in its words (all.astro).
    `- ${L.version} ${reference.version}`,
    `- ${L.server} \`${reference.server}\``,
    `- [${L.openApi}](${meta.openApiUrl})`,
    `- [${L.markdown}](${meta.pageUrl}.md)`,
    ...(meta.overviewUrl ? [`- [${L.overview}](${meta.overviewUrl})`] : []),
    ...(curlOnly ? ["- Requests: in curl; in JavaScript and Python on each operation's twin, linked below"] : []),
    '',
  ];
  lines.push('## Contents', '');
  // Each operation also has a page of its own (and a twin: its URL + `.md`).
  for (const group of reference.groups) {
    lines.push(
      `- ${group.name}: ${group.operations.map((op) => `[${op.method} ${op.path}](${meta.operationUrl(op.slug)}.md)`).join(', ')}`,
    );
  }
  lines.push('');
  for (const group of reference.groups) {
    lines.push(`## ${group.name}`, '');
    if (group.description) lines.push(group.description, '');
    for (const op of group.operations) lines.push(...operationMarkdown(op, curlOnly));
  }
  lines.push('## Discovery for agents', '', meta.entryPoints, '');
  return lines.join('\n');
}

/** The first sentence of a CommonMark description (what an operation's card on the overview shows). */
export function firstSentence(text: string): string {
  return /^[\s\S]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
}

/**
 * The twin of the overview page (`/docs/api`), in its order and words: the title and lead, the
 * version, server and links, then each group with one line per operation (method, summary, path, the
 * first sentence of its description, as the page's cards show) linking the operation's own twin, then
 * the entry points. The whole reference is the twin of the one-page reference (`/docs/api/all.md`).
 */
export function apiOverviewMarkdown(
  reference: ApiReference,
  links: {
    /** Twin URLs of the overview itself, the one-page reference and the developers hub. */
    markdownUrl: string;
    onePageUrl: string;
    developersUrl: string;
    openApiUrl: string;
    entryPoints: string;
    operationUrl: (slug: string) => string;
  },
): string {
  const lines = [
    `# ${reference.title}`,
    '',
    `> ${reference.description}`,
    '',
    `- ${L.version} ${reference.version}`,
    `- ${L.server} \`${reference.server}\``,
    `- [${L.openApi}](${links.openApiUrl})`,
    `- [${L.markdown}](${links.markdownUrl})`,
    `- [${L.onePage}](${links.onePageUrl})`,
    `- [${L.developersHub}](${links.developersUrl})`,
    '',
  ];
  for (const group of reference.groups) {
    lines.push(`## ${group.name}`, '');
    if (group.description) lines.push(group.description, '');
    for (const op of group.operations)
      lines.push(`- [${op.method} ${op.summary}](${links.operationUrl(op.slug)}.md) \`${op.path}\`: ${firstSentence(op.description)}`);
    lines.push('');
  }
  lines.push(`## ${L.discovery}`, '', links.entryPoints, '');
  return lines.join('\n');
}
