/**
 * a2aAgentCard check: an A2A v1.0 Agent Card at `/.well-known/agent-card.json` (A2A specification
 * §8.2; the required fields are the `REQUIRED` ones of `AgentCard` in `specification/a2a.proto`).
 *
 * The validation is written here: `@a2a-js/sdk` ships no card validator (its generated
 * `AgentCard.fromJSON` fills absent fields with defaults instead of rejecting them), and the
 * checker should not need an A2A runtime to read one JSON document.
 * @module
 */
import { getJsonDocument, isSecureUrl } from '../http.ts';
import { type CheckContext, fail, neutral, pass, type Verdict } from '../types.ts';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The bindings the specification names; the field is an open string, so others are reported, not refused. */
export const CORE_PROTOCOL_BINDINGS = ['JSONRPC', 'GRPC', 'HTTP+JSON'] as const;

/** `Major.Minor`, as `AgentInterface.protocolVersion` ("0.3", "1.0"). */
const PROTOCOL_VERSION = /^\d+\.\d+$/;
/** A media type (`type/subtype`), as the input and output modes are defined. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9!#$&^_.+*-]+$/i;

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A non-empty array of media types; the reason when it is not. */
function modesProblem(value: unknown, field: string): string | null {
  if (!Array.isArray(value) || value.length === 0) return `"${field}" is missing or empty (media types, e.g. "text/plain")`;
  const bad = value.find((m) => typeof m !== 'string' || !MEDIA_TYPE.test(m));
  return bad === undefined ? null : `"${field}" has ${JSON.stringify(bad)}, not a media type`;
}

/**
 * Validates a card against A2A v1.0; returns a one-line reason or the card's summary. A v0.3 card
 * (top-level `url`/`preferredTransport`, no `supportedInterfaces`) is named as such: v1.0 moved the
 * endpoint into `supportedInterfaces[]`.
 */
export function agentCardProblem(
  card: Record<string, unknown>,
): string | { name: string; version: string; interfaces: string[]; skills: number } {
  for (const key of ['name', 'description', 'version'] as const) if (!nonEmpty(card[key])) return `no "${key}"`;
  const interfaces = card.supportedInterfaces;
  if (!Array.isArray(interfaces) || interfaces.length === 0) {
    const legacy = card.url !== undefined || card.preferredTransport !== undefined;
    return legacy
      ? 'a v0.3 card (top-level "url"/"preferredTransport"): A2A v1.0 lists endpoints in "supportedInterfaces"'
      : 'no "supportedInterfaces"';
  }
  const described: string[] = [];
  for (const [i, raw] of interfaces.entries()) {
    if (!isObject(raw)) return `supportedInterfaces[${i}] is not an object`;
    if (!isSecureUrl(raw.url)) return `supportedInterfaces[${i}].url is missing or not an absolute https URL`;
    if (!nonEmpty(raw.protocolBinding)) return `supportedInterfaces[${i}] has no "protocolBinding" (${CORE_PROTOCOL_BINDINGS.join(', ')})`;
    if (typeof raw.protocolVersion !== 'string' || !PROTOCOL_VERSION.test(raw.protocolVersion))
      return `supportedInterfaces[${i}] has no "protocolVersion" of the form Major.Minor (e.g. "1.0")`;
    described.push(`${raw.protocolBinding} ${raw.protocolVersion}`);
  }
  if (!isObject(card.capabilities)) return 'no "capabilities" object (it may be empty)';
  for (const flag of ['streaming', 'pushNotifications', 'extendedAgentCard']) {
    if (card.capabilities[flag] !== undefined && typeof card.capabilities[flag] !== 'boolean')
      return `capabilities.${flag} is not a boolean`;
  }
  const modes = modesProblem(card.defaultInputModes, 'defaultInputModes') ?? modesProblem(card.defaultOutputModes, 'defaultOutputModes');
  if (modes) return modes;
  if (card.provider !== undefined && (!isObject(card.provider) || !nonEmpty(card.provider.organization) || !nonEmpty(card.provider.url)))
    return '"provider" needs both "organization" and "url"';
  const skills = card.skills;
  if (!Array.isArray(skills) || skills.length === 0) return 'no "skills"';
  const ids = new Set<string>();
  for (const [i, raw] of skills.entries()) {
    if (!isObject(raw)) return `skills[${i}] is not an object`;
    const label = nonEmpty(raw.id) ? `skill "${raw.id}"` : `skills[${i}]`;
    for (const key of ['id', 'name', 'description'] as const) if (!nonEmpty(raw[key])) return `${label} has no "${key}"`;
    if (ids.has(raw.id as string)) return `${label}: duplicate id`;
    ids.add(raw.id as string);
    if (!Array.isArray(raw.tags) || raw.tags.length === 0 || !raw.tags.every(nonEmpty))
      return `${label} has no "tags" (a non-empty list of keywords)`;
  }
  return { name: card.name as string, version: card.version as string, interfaces: described, skills: skills.length };
}

const FIX =
  'Serve /.well-known/agent-card.json (application/json) as an A2A v1.0 AgentCard: name, description, version, supportedInterfaces [{url, protocolBinding:"JSONRPC", protocolVersion:"1.0"}], capabilities {}, defaultInputModes, defaultOutputModes and skills [{id, name, description, tags}].';

/**
 * a2aAgentCard: a valid v1.0 card → pass. No card (404/410) → neutral: A2A is optional, and the
 * scanner runs this check only outside its default profile. A card that is served but invalid
 * fails: A2A clients would be misled by it.
 */
export async function checkA2aAgentCard(ctx: CheckContext): Promise<Verdict> {
  const found = await getJsonDocument(ctx, AGENT_CARD_PATH);
  if (!('doc' in found)) {
    if (found.res.status === 404 || found.res.status === 410)
      return neutral(`no A2A agent card (${found.problem}); only sites that offer an A2A endpoint need one`, FIX);
    return fail(found.problem, FIX);
  }
  const verdict = agentCardProblem(found.doc);
  if (typeof verdict === 'string') return fail(`${AGENT_CARD_PATH}: ${verdict}`, FIX);
  return pass(`${AGENT_CARD_PATH}: ${verdict.name} ${verdict.version}, ${verdict.skills} skill(s), ${verdict.interfaces.join(', ')}`);
}
