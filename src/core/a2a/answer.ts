/**
 * What the site's A2A agent answers to one user message: it reads the message's parts, picks the
 * skill (a public MCP tool), runs that tool and words the result as a markdown text part with
 * absolute links plus a JSON data part. Pure: the JSON-RPC layer turns a refusal into the A2A error
 * it names, and an answer into the reply Message.
 *
 * How a message is read (the agent card's skill descriptions say the same):
 * - a data part `{"skill": "<skill id>", "arguments": {...}}` calls that skill (its id is the MCP
 *   tool's name); so does a text part that is exactly that JSON object;
 * - otherwise the text parts: a page URL of an article or solution of this site (or its markdown
 *   twin, a root-relative path or a bare slug) reads that article; a question about the products or
 *   about the company and its contact channels, in Chinese or English, calls that skill (intent.ts);
 *   any other text is a search query (a text longer than a query: its words, search/tokenize.ts `queryOfText`).
 * Every reply ends by naming the skill that answered.
 * @module
 */
import * as v from 'valibot';
import type { CatalogReader } from '../content/catalog-reader.ts';
import type { JsonObject } from '../kernel/jsonrpc.ts';
import { findTool, TOOLS } from '../agent-tools/registry.ts';
import type { FeedbackKind } from '../agent-tools/submit-feedback.ts';
import type { Tool, ToolContext } from '../agent-tools/tool.ts';
import { MAX_QUERY_CHARS } from '../search/search-index.ts';
import { queryOfText } from '../search/tokenize.ts';
import { feedbackIntentOf, intentOf } from './intent.ts';

/** The skills an A2A caller may use: the public MCP tools (the export tool needs an OAuth token for `/mcp`, so it stays there). */
export const A2A_SKILLS: readonly Tool[] = TOOLS.filter((tool) => tool.requiredScope === undefined);

/** Media types of the parts this agent reads (`mediaType` may also be left out). */
export const TEXT_INPUT_TYPES: readonly string[] = ['text/plain', 'text/markdown'];
export const DATA_INPUT_TYPE = 'application/json';
/** Media types of the parts it answers with. */
export const TEXT_OUTPUT_TYPE = 'text/markdown';
export const DATA_OUTPUT_TYPE = 'application/json';

/** A request field that is wrong, as `google.rpc.BadRequest.FieldViolation`. */
export interface FieldViolation {
  field: string;
  description: string;
}

/** Why a message is refused: the A2A error kind and what to tell the caller. */
export type Refusal =
  | { kind: 'invalid-params'; message: string; violations: FieldViolation[] }
  | { kind: 'content-type-not-supported'; message: string };

/** One answer: markdown for people and models, JSON for programs. */
export interface Answer {
  text: string;
  data: JsonObject;
}

export type AnswerOutcome = { ok: true; answer: Answer; textType: string; includeData: boolean } | { ok: false; refusal: Refusal };

/** One message part as ProtoJSON sends it: exactly one of `text`, `raw`, `url`, `data`. */
const PartSchema = v.pipe(
  v.looseObject({
    text: v.optional(v.string('text must be a string')),
    raw: v.optional(v.string('raw must be a base64 string')),
    url: v.optional(v.string('url must be a string')),
    data: v.optional(v.unknown()),
    mediaType: v.optional(v.string('mediaType must be a string')),
  }),
  v.check(
    (part) => ['text', 'raw', 'url', 'data'].filter((key) => key in part).length === 1,
    'a part must have exactly one of text, raw, url or data',
  ),
);

/** The `SendMessageRequest` members this agent reads; others (metadata, tenant, …) are passed over. */
const SendMessageParamsSchema = v.looseObject({
  message: v.looseObject(
    {
      messageId: v.pipe(v.string('messageId is required'), v.minLength(1, 'messageId must not be empty')),
      // ProtoJSON allows an enum by name or by number.
      role: v.picklist(['ROLE_USER', 1] as const, 'role must be ROLE_USER: this agent answers user messages'),
      parts: v.pipe(v.array(PartSchema, 'parts must be an array of parts'), v.minLength(1, 'parts must hold at least one part')),
    },
    'message is required: a Message with messageId, role and parts',
  ),
  configuration: v.optional(
    v.looseObject({
      acceptedOutputModes: v.optional(
        v.array(v.string('acceptedOutputModes must list media types'), 'acceptedOutputModes must be an array'),
      ),
    }),
  ),
});

/** A data part that calls a skill. */
const SkillCallSchema = v.strictObject(
  {
    skill: v.string('skill must be a string: the id of one of the agent card skills'),
    arguments: v.optional(v.record(v.string(), v.unknown(), 'arguments must be an object'), {}),
  },
  'a data part must be {"skill": "<skill id>", "arguments": {...}} with nothing else',
);

const violationsOf = (issues: readonly v.BaseIssue<unknown>[], prefix: string): FieldViolation[] =>
  issues.map((issue) => ({ field: [prefix, v.getDotPath(issue)].filter(Boolean).join('.'), description: issue.message }));

const invalid = (message: string, violations: FieldViolation[]): AnswerOutcome => ({
  ok: false,
  refusal: { kind: 'invalid-params', message, violations },
});

const skillIds = (): string => A2A_SKILLS.map((s) => s.name).join(', ');

/**
 * Answers the `params` of a `SendMessage` call, or says why it cannot: -32602 for a message it
 * cannot read, -32005 for parts of a kind or media type it does not take.
 */
export async function answerMessage(params: unknown, ctx: ToolContext): Promise<AnswerOutcome> {
  const parsed = v.safeParse(SendMessageParamsSchema, params, { abortEarly: false });
  if (!parsed.success)
    return invalid(`Invalid SendMessage params: ${parsed.issues.map((i) => i.message).join('; ')}.`, violationsOf(parsed.issues, ''));
  const { message, configuration } = parsed.output;

  const texts: string[] = [];
  const data: { index: number; value: unknown }[] = [];
  for (const [index, part] of message.parts.entries()) {
    const type = part.mediaType ?? '';
    if (part.raw !== undefined || part.url !== undefined) {
      return {
        ok: false,
        refusal: {
          kind: 'content-type-not-supported',
          message: `message.parts[${index}] is a file part: this agent reads text parts and JSON data parts only.`,
        },
      };
    }
    if (part.text !== undefined) {
      if (type !== '' && !TEXT_INPUT_TYPES.includes(type)) return unsupportedType(index, type, TEXT_INPUT_TYPES);
      texts.push(part.text);
    } else {
      if (type !== '' && type !== DATA_INPUT_TYPE) return unsupportedType(index, type, [DATA_INPUT_TYPE]);
      data.push({ index, value: part.data });
    }
  }
  if (data.length > 1)
    return invalid('Send at most one data part: one skill call per message.', [
      { field: 'message.parts', description: `${data.length} data parts` },
    ]);

  const jsonCall = data.length === 0 && texts.length === 1 ? skillCallInText(texts[0]!) : undefined;
  const call =
    data.length === 1
      ? skillCall(data[0]!.value, data[0]!.index)
      : jsonCall !== undefined
        ? skillCall(
            jsonCall,
            message.parts.findIndex((part) => part.text !== undefined),
          )
        : textRequest(texts.join('\n').trim(), ctx);
  if (!call.ok) return call;
  const outcome = await call.tool.call(call.args, ctx);
  const accepted = configuration?.acceptedOutputModes ?? [];
  return {
    ok: true,
    answer: outcome.isError
      ? toolRefusal(call.tool.name, outcome.content[0]?.text ?? 'The skill failed.')
      : word(call.tool, outcome.structuredContent ?? {}, ctx),
    // acceptedOutputModes is a SHOULD: markdown is readable as plain text, and the data part is left
    // out for a caller that takes no JSON. An empty list means any.
    textType:
      accepted.length === 0 || accepted.includes(TEXT_OUTPUT_TYPE) || !accepted.includes('text/plain') ? TEXT_OUTPUT_TYPE : 'text/plain',
    includeData: accepted.length === 0 || accepted.includes(DATA_OUTPUT_TYPE),
  };
}

function unsupportedType(index: number, type: string, supported: readonly string[]): AnswerOutcome {
  return {
    ok: false,
    refusal: {
      kind: 'content-type-not-supported',
      message: `message.parts[${index}] has mediaType "${type}"; this part kind takes ${supported.join(' or ')}.`,
    },
  };
}

type SkillCall = { ok: true; tool: Tool; args: JsonObject } | { ok: false; refusal: Refusal };

/** A data part naming a skill, with its arguments checked against the tool's own schema. */
function skillCall(value: unknown, index: number): SkillCall {
  const field = `message.parts.${index}.data`;
  const parsed = v.safeParse(SkillCallSchema, value, { abortEarly: false });
  if (!parsed.success)
    return {
      ok: false,
      refusal: {
        kind: 'invalid-params',
        message: `Invalid data part: ${parsed.issues.map((i) => i.message).join('; ')}.`,
        violations: violationsOf(parsed.issues, field),
      },
    };
  const tool = A2A_SKILLS.find((s) => s.name === parsed.output.skill);
  if (!tool) {
    const hint = findTool(parsed.output.skill) ? ' It needs an OAuth token: call it over MCP (see the MCP server card).' : '';
    return {
      ok: false,
      refusal: {
        kind: 'invalid-params',
        message: `Unknown skill "${parsed.output.skill}". Skills: ${skillIds()}.${hint}`,
        violations: [{ field: `${field}.skill`, description: `one of ${skillIds()}` }],
      },
    };
  }
  return checkedArguments(tool, parsed.output.arguments, `${field}.arguments`);
}

/** Text: an article request when it names a document of this site, otherwise a search. */
function textRequest(text: string, ctx: ToolContext): SkillCall {
  if (text === '') {
    return {
      ok: false,
      refusal: {
        kind: 'invalid-params',
        message:
          'The message has no text: send a search query or the URL or slug of an article, or a data part {"skill": ..., "arguments": {...}}.',
        violations: [{ field: 'message.parts', description: 'no non-blank text part and no data part' }],
      },
    };
  }
  const feedback = feedbackIntentOf(text);
  if (feedback) return feedbackCall(feedback.kind, feedback.rest, ctx.origin);
  const slug = documentSlugIn(text, ctx.catalog, ctx.origin);
  if (slug !== undefined) return checkedArguments(findTool('get_article')!, { slug }, 'message.parts');
  const intent = intentOf(text, [ctx.site.company.name, ctx.site.company.name_zh]);
  if (intent.skill !== 'search_articles') return checkedArguments(findTool(intent.skill)!, {}, 'message.parts');
  // "Send any text" (the card): a question longer than a query is searched for by its words (search/tokenize.ts).
  return checkedArguments(findTool('search_articles')!, { query: queryOfText(intent.query, MAX_QUERY_CHARS) }, 'message.parts');
}

/**
 * Feedback in words: the page is the first URL of this site or root-relative path in `rest`, the
 * text is the rest of the message (whether it is a page of the site, the tool's sink decides).
 */
function feedbackCall(kind: FeedbackKind, rest: string, origin: string): SkillCall {
  const found = PAGE_IN_TEXT.exec(rest);
  const page = found?.[1]?.replace(/[.,;:!?]+$/, '');
  if (!found || !page || (!page.startsWith('/') && !page.toLowerCase().startsWith(origin.toLowerCase())))
    return {
      ok: false,
      refusal: {
        kind: 'invalid-params',
        message: `Say which page the feedback is about: "Feedback on ${origin}/blog/<slug>: what is wrong", or send the data part {"skill": "submit_feedback", "arguments": {"page": ..., "kind": ..., "text": ...}}.`,
        violations: [{ field: 'message.parts', description: 'no URL or path of a page of this site' }],
      },
    };
  const words = `${rest.slice(0, found.index)} ${rest.slice(found.index + found[0].length)}`.replace(/^[\s:：,，.。;；-]+/, '').trim();
  return checkedArguments(findTool('submit_feedback')!, { page, kind, text: words }, 'message.parts');
}

/** A URL or root-relative path at a word's start, up to a space, a quote or Chinese text (a slug is ASCII). */
const PAGE_IN_TEXT = /(?<![\w/])[`'"<(]?((?:https?:\/\/|\/)[^\s<>"'`()\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]*)[`'">)]?/i;

/**
 * The value of a text part that is exactly a JSON object naming a skill (`{"skill": …}`, as a model
 * copies the call from the card): it is read as the data part it spells. Any other text is text.
 */
function skillCallInText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value) && 'skill' in value ? value : undefined;
  } catch {
    return undefined;
  }
}

function checkedArguments(tool: Tool, args: unknown, field: string): SkillCall {
  const parsed = v.safeParse(tool.input, args, { abortEarly: false });
  if (parsed.success) return { ok: true, tool, args: parsed.output };
  return {
    ok: false,
    refusal: {
      kind: 'invalid-params',
      message: `Invalid arguments for ${tool.name}: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? 'arguments'}: ${i.message}`).join('; ')}.`,
      violations: violationsOf(parsed.issues, field),
    },
  };
}

/**
 * The slug of the article or solution the text names: the whole text is a slug, or it holds a URL
 * (absolute on this origin, or root-relative) of a document page or its markdown twin. Looks up
 * only the slugs the text names (a page's last path segment is its slug: {@link CatalogReader}).
 */
export function documentSlugIn(text: string, catalog: Pick<CatalogReader, 'document'>, origin: string): string | undefined {
  const bare = text.replace(/^[\s`'"<]+|[\s`'">.]+$/g, '');
  if (catalog.document(bare)) return bare;
  for (const token of text.split(/\s+/)) {
    const candidate = token.replace(/^[`'"<(]+|[`'">),.;]+$/g, '');
    if (!candidate.startsWith('/') && !/^https?:\/\//i.test(candidate)) continue;
    let url: URL;
    try {
      url = new URL(candidate, origin);
    } catch {
      continue;
    }
    if (url.origin !== origin) continue;
    const page = url.pathname.replace(/\.md$/, '').replace(/\/+$/, '');
    const doc = catalog.document(page.slice(page.lastIndexOf('/') + 1));
    if (doc?.path === page) return doc.slug;
  }
  return undefined;
}

/**
 * Words a tool's structured result (the tool says how it reads: agent-tools/reading.ts):
 * the text part, and the data part `{skill, result, links}`.
 */
function word(tool: Tool, result: JsonObject, ctx: ToolContext): Answer {
  const reading = tool.read(result, ctx);
  return {
    text: `${reading.text}\n\n${answeredBy(tool)}`,
    data: { skill: tool.name, result: reading.result ?? result, ...(reading.links ? { links: reading.links } : {}) },
  };
}

function toolRefusal(skill: string, message: string): Answer {
  return { text: `${message}\n\n${answeredBy(findTool(skill)!)}`, data: { skill, error: message } };
}

/** The line every reply ends with: which skill answered, so a caller (or its model) knows how the text was read. */
export function answeredBy(tool: Tool): string {
  return `(Answered by the skill ${tool.name}: ${tool.listing.title}.)`;
}
