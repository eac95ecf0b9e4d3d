/**
 * `POST /a2a`: the site's A2A v1.0 agent over JSON-RPC 2.0 (A2A §9), served by `@a2a-js/sdk`'s
 * `DefaultRequestHandler` through the fetch adapter (sdk-fetch-adapter.ts).
 *
 * - `SendMessage` answers at once with a Message (never a Task): a search or an article, worded
 *   by answer.ts from the public MCP tools, with absolute links to the pages and their twins.
 * - No task is ever kept (the task store keeps nothing), so `GetTask` and `CancelTask` answer
 *   TaskNotFoundError (-32001), a message naming a `taskId` too, and `ListTasks` answers the empty
 *   list (A2A §3.1.4 defines no error for it; an empty page is the truthful answer).
 * - The card declares no streaming, push notifications or extended card, so the SDK answers
 *   `SendStreamingMessage`/`SubscribeToTask` and `GetExtendedAgentCard` with
 *   UnsupportedOperationError (-32004) and the push-config methods with
 *   PushNotificationNotSupportedError (-32003), as A2A §3.3.4 requires.
 *
 * `A2A-Version` (A2A §3.6): 1.0, and 0.3 for the clients still on it (legacy.ts: the SDK's compat
 * transport, kebab-case methods such as `message/send`, over the same handler and agent). A request
 * without the header is, by §3.6.2, a 0.3 request; one that calls a 1.0 method that way (a 1.0
 * caller that left the header out) is answered VersionNotSupportedError (-32009) naming the header,
 * as is any other version. Every answer carries `Vary: A2A-Version`.
 * @module
 */
import { type AgentCard, Role, type Message } from '@a2a-js/sdk';
import { isV1JsonRpcMethod, LEGACY_METHOD_MESSAGE_SEND } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { ContentTypeNotSupportedError, RequestMalformedError, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { AgentEvent, DefaultRequestHandler, JsonRpcTransportHandler, type AgentExecutor, type TaskStore } from '@a2a-js/sdk/server';
import { type BrowserOriginPolicy, isAllowedBrowserOrigin } from '../kernel/browser-origin.ts';
import type { CorsPolicy } from '../kernel/cors.ts';
import type { JsonRpcId } from '../kernel/jsonrpc.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { type JsonRpcEndpoint, jsonRpcEdge, serveJsonRpc } from '../kernel/jsonrpc-endpoint.ts';
import type { ToolContext } from '../agent-tools/tool.ts';
import { answerMessage, DATA_OUTPUT_TYPE, type AnswerOutcome, type Refusal } from './answer.ts';
import { A2A_PROTOCOL_VERSION } from './card.ts';
import { isLegacyVersion, LEGACY_PROTOCOL_VERSION, v1SendParamsOf } from './legacy.ts';
import {
  A2A_VERSION_HEADER,
  ABSENT_VERSION,
  callContext,
  dispatch,
  errorObjectOf,
  errorResponse,
  type A2aErrorObject,
} from './sdk-fetch-adapter.ts';

/** Largest request body accepted (413 beyond it): a message is a query or a URL, not a document. */
export const MAX_BODY_BYTES = 64 * 1024;

const A2A_CORS: CorsPolicy = { methods: ['POST'], allowHeaders: ['Accept', 'Content-Type', 'A2A-Version', 'A2A-Extensions'] };

/** What the endpoint needs: the catalogue and search engine (as the MCP tools), and the card's facts. */
export interface A2aDeps extends ToolContext {
  /** The agent card (built by a2a/card.ts from the discovery documents' source). */
  card: AgentCard;
  /** Which browser origins may call (AGENT_BROWSER_ORIGINS, default `auto`: kernel/browser-origin.ts); requests without Origin pass. */
  browserOrigins?: BrowserOriginPolicy;
  /** Where unexpected failures are logged. */
  log?: (message: string, error: unknown) => void;
}

/** Where the prepared answer travels from the JSON-RPC layer to the executor (the call context's state). */
const ANSWER_STATE_KEY = 'site-agent/answer';
type PreparedAnswer = Extract<AnswerOutcome, { ok: true }>;

/** Nothing is kept: the agent answers with Messages, so there is never a task to load or list. */
const NO_TASKS: TaskStore = {
  save: async () => undefined,
  load: async () => undefined,
  list: async (params) => ({ tasks: [], nextPageToken: '', pageSize: params.pageSize ?? 0, totalSize: 0 }),
};

/** The reply Message (SDK form) of a prepared answer. */
function replyMessage(prepared: PreparedAnswer, contextId: string): Message {
  const part = (content: NonNullable<Message['parts'][number]['content']>, mediaType: string): Message['parts'][number] => ({
    content,
    mediaType,
    filename: '',
    metadata: undefined,
  });
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId: '',
    role: Role.ROLE_AGENT,
    parts: [
      part({ $case: 'text', value: prepared.answer.text }, prepared.textType),
      ...(prepared.includeData ? [part({ $case: 'data', value: prepared.answer.data }, DATA_OUTPUT_TYPE)] : []),
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Publishes the answer the JSON-RPC layer prepared (and checked) for this SendMessage. */
const SITE_AGENT: AgentExecutor = {
  async execute(requestContext, eventBus) {
    const prepared = requestContext.context.state.get(ANSWER_STATE_KEY) as PreparedAnswer | undefined;
    if (!prepared) throw new Error('SendMessage reached the agent without a prepared answer');
    eventBus.publish(AgentEvent.message(replyMessage(prepared, requestContext.contextId)));
    eventBus.finished();
  },
  // Never called: with no kept tasks, CancelTask answers TaskNotFound before reaching the executor.
  cancelTask: async () => undefined,
};

/** The A2A error of a refused message: -32602 with a `google.rpc.BadRequest` detail, or -32005. */
function refusalError(refusal: Refusal): A2aErrorObject {
  if (refusal.kind === 'content-type-not-supported') return errorObjectOf(new ContentTypeNotSupportedError({ message: refusal.message }));
  const error = errorObjectOf(new RequestMalformedError({ message: refusal.message }));
  const details = Array.isArray(error.data) ? error.data : [];
  return { ...error, data: [...details, { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: refusal.violations }] };
}

interface Server {
  handler: DefaultRequestHandler;
  transport: JsonRpcTransportHandler;
  /** The SDK's 0.3 transport over the same handler (legacy.ts). */
  legacyTransport: LegacyJsonRpcTransportHandler;
}
let cached: ({ deps: A2aDeps } & Server) | undefined;
function server(deps: A2aDeps): Server {
  if (cached?.deps !== deps) {
    const handler = new DefaultRequestHandler(deps.card, NO_TASKS, SITE_AGENT);
    cached = {
      deps,
      handler,
      transport: new JsonRpcTransportHandler(handler),
      legacyTransport: new LegacyJsonRpcTransportHandler(handler),
    };
  }
  return cached;
}

/** The 0.3 form of an error the agent raises itself (a bare `{code, message, data?}`, as the SDK's compat layer writes them). */
function legacyError(error: A2aErrorObject, refusal: Refusal): A2aErrorObject {
  const mapped = LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(
    refusal.kind === 'content-type-not-supported'
      ? new ContentTypeNotSupportedError({ message: refusal.message })
      : new RequestMalformedError({ message: refusal.message }),
  );
  return {
    code: mapped.code ?? error.code,
    message: mapped.message ?? error.message,
    ...(mapped.data === undefined ? {} : { data: mapped.data }),
  };
}

/** The A2A endpoint's transport: the JSON-RPC binding over POST (kernel/jsonrpc-endpoint.ts). */
function a2aEndpoint(deps: A2aDeps): JsonRpcEndpoint {
  return {
    allowOrigin: (origin) => isAllowedBrowserOrigin(origin, deps.origin, deps.browserOrigins),
    allow: 'POST, OPTIONS',
    maxBodyBytes: MAX_BODY_BYTES,
    messages: {
      methodNotAllowed:
        'Method not allowed: the A2A JSON-RPC endpoint takes POST (A2A §9); its agent card is at /.well-known/agent-card.json.',
      unsupportedMediaType: 'Unsupported media type: send the JSON-RPC request as Content-Type: application/json (A2A §9.1).',
      tooLarge: `Content too large: the body must be at most ${MAX_BODY_BYTES} bytes.`,
    },
    requireAcceptJson: false,
    responses: 'refuse',
    notifications: 'accept',
    log: deps.log,
  };
}

/**
 * A v1.0 method (`SendMessage`) in a request that is 0.3 by its version: most often a v1.0 caller
 * that left out `A2A-Version` (A2A §3.6.2 reads that as 0.3, whose methods are `message/send`, …).
 * VersionNotSupportedError (-32009) says which header to send, rather than the 0.3 handler's -32601.
 */
function v1MethodWithoutVersion(req: Request, method: string): A2aErrorObject {
  const sent = req.headers.get(A2A_VERSION_HEADER) ?? new URL(req.url).searchParams.get(A2A_VERSION_HEADER);
  const why =
    sent === null || sent.trim() === ''
      ? `No ${A2A_VERSION_HEADER} header was sent, which A2A §3.6.2 reads as ${ABSENT_VERSION}`
      : `${A2A_VERSION_HEADER} "${sent}" asks for A2A ${LEGACY_PROTOCOL_VERSION}`;
  return errorObjectOf(
    new VersionNotSupportedError({
      message: `${why}, but ${method} is an A2A ${A2A_PROTOCOL_VERSION} method: send ${A2A_VERSION_HEADER}: ${A2A_PROTOCOL_VERSION} (A2A ${LEGACY_PROTOCOL_VERSION} clients call message/send).`,
      metadata: { requestedVersion: LEGACY_PROTOCOL_VERSION, supportedVersions: `${A2A_PROTOCOL_VERSION},${LEGACY_PROTOCOL_VERSION}` },
    }),
  );
}

/** The edge of `/a2a`: POST, and CORS for the browser origins its guard lets through (as `/mcp`). */
export function a2aEdge(deps: Pick<A2aDeps, 'origin' | 'browserOrigins'>): EdgeOptions {
  return jsonRpcEdge(A2A_CORS, (origin) => isAllowedBrowserOrigin(origin, deps.origin, deps.browserOrigins));
}

/** Answers one request to the A2A endpoint; never throws (an unexpected failure is a logged 500 -32603). */
export function handleA2a(req: Request, deps: A2aDeps): Promise<Response> {
  return serveJsonRpc(req, a2aEndpoint(deps), async (message) => {
    // The answer's shapes follow the request's version (A2A §3.6.2).
    const varied = (res: Response): Response => {
      res.headers.append('vary', A2A_VERSION_HEADER);
      return res;
    };
    // Notifications are answered 202 by the transport: a request is all that reaches here.
    const call = { id: (message as { id: JsonRpcId }).id, method: message.method, params: message.params };
    const { handler, transport, legacyTransport } = server(deps);
    const state = new Map<string, unknown>();
    const context = await callContext(req, handler, state);
    if ('error' in context) return varied(errorResponse(call.id, context.error));
    const legacy = isLegacyVersion(context.context.requestedVersion ?? '');
    if (legacy && isV1JsonRpcMethod(call.method)) return varied(errorResponse(call.id, v1MethodWithoutVersion(req, call.method)));
    if (call.method === (legacy ? LEGACY_METHOD_MESSAGE_SEND : 'SendMessage')) {
      const outcome = await answerMessage(legacy ? v1SendParamsOf(call.params) : call.params, deps);
      if (!outcome.ok) {
        const error = refusalError(outcome.refusal);
        return varied(errorResponse(call.id, legacy ? legacyError(error, outcome.refusal) : error));
      }
      state.set(ANSWER_STATE_KEY, outcome);
    }
    return varied(await dispatch(legacy ? legacyTransport : transport, call, context.context));
  });
}
