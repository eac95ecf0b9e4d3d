/**
 * A2A 0.3 beside 1.0 on the one endpoint, as the A2A v1.0 compatibility appendix and the SDK's
 * `legacyCompat` layer do it (`@a2a-js/sdk/compat/v0_3`, the SDK's v0.3 compatibility guide): a request
 * whose `A2A-Version` is 0.3 (or absent: A2A §3.6.2) is answered by the SDK's
 * `LegacyJsonRpcTransportHandler` (kebab-case methods such as `message/send`, 0.3 shapes both ways)
 * over the same request handler and agent; the card a 0.3 client reads is the SDK's "hybrid"
 * (0.3 top-level `url`, `preferredTransport`, `protocolVersion` plus the v1.0 `supportedInterfaces`).
 *
 * Written here rather than taken from the SDK: the hybrid card (the SDK builds it only inside its
 * Express router) and the reading of a 0.3 `message/send` as the v1.0 `SendMessage` params the
 * agent checks before the SDK runs it (answer.ts); the SDK translates the call itself.
 * @module
 */
import type { AgentCardJson } from './card.ts';

/** The version a 0.3 interface, request and card carry. */
export const LEGACY_PROTOCOL_VERSION = '0.3';

/** Whether a requested `Major.Minor` is in [0.3, 1.0), the range the compat layer serves (0.3 only exists in it). */
export function isLegacyVersion(version: string): boolean {
  const numbered = /^0\.(\d+)$/.exec(version);
  return numbered !== null && Number(numbered[1]) >= 3;
}

/** The agent card as a 0.3 client reads it: the SDK's hybrid shape (a v1.0 client reading it prefers `supportedInterfaces`). */
export function legacyAgentCard(card: AgentCardJson): Record<string, unknown> {
  const legacy = card.supportedInterfaces.find((i) => isLegacyVersion(i.protocolVersion));
  if (!legacy) throw new Error('The agent card lists no 0.3 interface');
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    url: legacy.url,
    preferredTransport: legacy.protocolBinding,
    protocolVersion: legacy.protocolVersion,
    capabilities: { streaming: card.capabilities.streaming, pushNotifications: card.capabilities.pushNotifications },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills,
    provider: card.provider,
    documentationUrl: card.documentationUrl,
    iconUrl: card.iconUrl,
    supportsAuthenticatedExtendedCard: card.capabilities.extendedAgentCard,
    supportedInterfaces: card.supportedInterfaces,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A 0.3 part (`kind` text, data or file) in the v1.0 ProtoJSON form answer.ts reads; anything else is passed on to be refused there. */
function v1Part(part: unknown): unknown {
  if (!isRecord(part)) return part;
  const metadata = isRecord(part.metadata) ? { metadata: part.metadata } : {};
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...metadata };
    case 'data':
      return { data: part.data, ...metadata };
    case 'file': {
      const file = isRecord(part.file) ? part.file : {};
      const mediaType = typeof file.mimeType === 'string' ? { mediaType: file.mimeType } : {};
      return 'bytes' in file ? { raw: file.bytes, ...mediaType } : { url: file.uri, ...mediaType };
    }
    default:
      return part;
  }
}

/** 0.3 role names to the v1.0 enum (`user` → ROLE_USER); others are passed on to be refused. */
const ROLES: Readonly<Record<string, string>> = { user: 'ROLE_USER', agent: 'ROLE_AGENT' };

/**
 * The params of a 0.3 `message/send` as v1.0 `SendMessage` params (message id, role, parts,
 * configuration), so the agent reads and refuses both versions by one set of rules.
 */
export function v1SendParamsOf(params: unknown): unknown {
  if (!isRecord(params) || !isRecord(params.message)) return params;
  const { message } = params;
  return {
    ...params,
    message: {
      ...message,
      role: typeof message.role === 'string' ? (ROLES[message.role] ?? message.role) : message.role,
      parts: Array.isArray(message.parts) ? message.parts.map(v1Part) : message.parts,
    },
  };
}
