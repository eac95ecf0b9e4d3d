/**
 * The markdown twin of `/docs/api`: the same reference as the HTML page (groups, parameters,
 * schemas as nested lists, an example of every response, curl / JavaScript / Python requests).
 * @module
 */
import type { ApiReference, ReferenceOperation, SchemaNode } from './reference.ts';
import { SNIPPET_LANGUAGES } from './snippets.ts';

/** Markdown table cell text: pipes escaped, line breaks flattened. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** One schema line's type and constraints: `string, 1–100 characters, pattern ^a`. */
function typeText(node: SchemaNode): string {
  return [node.type, ...node.constraints].map((part) => (part.includes('`') ? part : `\`${part}\``)).join(', ');
}

/** A schema as a nested markdown list (fields, array items, variants). */
export function schemaMarkdown(node: SchemaNode, indent = ''): string[] {
  const lines: string[] = [];
  for (const field of node.fields ?? []) {
    const description = field.node.description ? `: ${field.node.description}` : '';
    lines.push(`${indent}- \`${field.name}\` (${typeText(field.node)}${field.required ? ', required' : ''})${description}`);
    lines.push(...childLines(field.node, `${indent}  `));
  }
  if (!node.fields) lines.push(...childLines(node, indent));
  return lines;
}

function childLines(node: SchemaNode, indent: string): string[] {
  const lines: string[] = [];
  if (node.items) {
    if (node.items.fields) lines.push(...schemaMarkdown(node.items, indent));
    else lines.push(...childLines(node.items, indent));
  }
  for (const variant of node.variants ?? []) {
    lines.push(
      `${indent}- one of: **${variant.title}** (${typeText(variant.node)})${variant.node.description ? `: ${variant.node.description}` : ''}`,
    );
    lines.push(...schemaMarkdown(variant.node, `${indent}  `));
  }
  return lines;
}

/** One operation in the whole reference: `### METHOD /path`, its summary, then {@link operationDetailsMarkdown}. */
function operationMarkdown(op: ReferenceOperation): string[] {
  return [`### ${op.method} ${op.path}`, '', `**${op.summary}**`, '', ...operationDetailsMarkdown(op)];
}

/** An operation's facts below its title: description, authentication, parameters, body, responses, examples, requests. */
export function operationDetailsMarkdown(op: ReferenceOperation): string[] {
  const lines = [op.description, ''];
  if (op.auth.length) lines.push('Authentication:', '', ...op.auth.map((a) => `- ${a}`), '');
  if (op.parameters.length) {
    lines.push('| parameter | in | required | type | description |', '| --- | --- | --- | --- | --- |');
    for (const p of op.parameters)
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${p.required ? 'yes' : 'no'} | ${cell(typeText(p.node))} | ${cell(p.description)}${p.example ? ` Example: \`${cell(p.example)}\`.` : ''} |`,
      );
    lines.push('');
  }
  if (op.requestBody) {
    lines.push(
      `Request body${op.requestBody.required ? ' (required)' : ''}: ${op.requestBody.mediaTypes.map((t) => `\`${t}\``).join(' or ')}`,
      '',
    );
    const fields = schemaMarkdown(op.requestBody.node);
    if (fields.length) lines.push(...fields, '');
  }
  lines.push('Responses:', '');
  for (const r of op.responses) {
    lines.push(
      `- **${r.status}**: ${r.description}${r.headers.length ? ` Headers: ${r.headers.map((h) => `\`${h.name}\``).join(', ')}.` : ''}`,
    );
  }
  lines.push('');
  for (const r of op.responses) {
    for (const body of r.bodies) {
      if (body.example === undefined) continue;
      lines.push(`Example ${r.status} (\`${body.mediaType}\`):`, '', '```json', body.example, '```', '');
    }
  }
  for (const request of op.requests) {
    if (request.title) lines.push(`Request: ${request.title}`, '');
    for (const language of SNIPPET_LANGUAGES) lines.push(`\`\`\`${language.code}`, request.snippets[language.id], '```', '');
  }
  return lines;
}

/**
 * The whole twin; `entryPoints` is the markdown list of agent entry points that ends it, and
 * `operationUrl` the URL of an operation's own page (its twin is that URL + `.md`).
 */
export function apiReferenceMarkdown(
  reference: ApiReference,
  meta: { pageUrl: string; openApiUrl: string; entryPoints: string; operationUrl: (slug: string) => string },
): string {
  const lines = [
    `# ${reference.title}`,
    '',
    `> ${reference.description}`,
    '',
    `- URL: ${meta.pageUrl}`,
    `- Version: ${reference.version}`,
    `- OpenAPI: ${meta.openApiUrl}`,
    `- Server: ${reference.server}`,
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
    for (const op of group.operations) lines.push(...operationMarkdown(op));
  }
  lines.push('## Discovery for agents', '', meta.entryPoints, '');
  return lines.join('\n');
}
