/** This function instance's usage counters (src/core/kernel/metrics.ts), written to the `analytics` store. */
import type { Context } from '@netlify/functions';
import { Metrics, type Usage } from '../../../src/core/kernel/metrics.ts';
import { clientNetwork } from '../../../src/core/kernel/ip-ranges.ts';
import type { UsageCounting } from '../../../src/core/kernel/handler.ts';
import { clientIp, networkDigest, now, runtimeConfig, stores } from './deps.ts';

export const metrics = new Metrics({
  store: () => stores('analytics'),
  clock: now,
  instanceId: crypto.randomUUID().slice(0, 8),
  networkDigest,
  flushIntervalMs: runtimeConfig().analyticsFlushIntervalMs,
});

/** The `usage` option of httpHandler: every answer counted under `surface`. */
export const counting = (surface: string): UsageCounting => ({ surface, metrics });

/** What a handler counts for one request, bound to the client's network (for the queries it counts). */
export const usageOf = (context: Pick<Context, 'ip'>): Usage => metrics.usage(clientNetwork(clientIp(context)));
