/**
 * `GET /health`: build facts and live checks (search index loaded, Blobs reachable). 503 with
 * `status: "degraded"` when a check fails, so a load balancer or uptime check can act on it.
 * @module
 */
import * as v from 'valibot';
import type { EdgeOptions } from '../kernel/handler.ts';
import { PROBLEM_ERRORS } from '../kernel/problem.ts';
import { json, requireMethod } from '../kernel/respond.ts';
import type { Store } from '../kernel/store.ts';

export interface BuildFacts {
  version: string;
  commit: string;
  built_at: string;
}

export const HealthSchema = v.object({
  status: v.pipe(v.picklist(['ok', 'degraded']), v.description('`ok` when every check passed.')),
  version: v.pipe(v.string(), v.description('Version of the deployed site.')),
  commit: v.pipe(v.string(), v.description('Git commit of the build.')),
  built_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the build ran.')),
  checks: v.object({
    search_index: v.pipe(
      v.object({
        ok: v.boolean(),
        documents: v.pipe(v.number(), v.integer(), v.description('Documents in the index.')),
        error: v.optional(v.string()),
      }),
      v.description('The search index loaded.'),
    ),
    blobs: v.pipe(
      v.object({
        ok: v.boolean(),
        latency_ms: v.pipe(v.number(), v.description('Write + read + delete round trip (the latest, made at most every few seconds).')),
        error: v.optional(v.string()),
      }),
      v.description('Netlify Blobs answered a round trip.'),
    ),
  }),
});

/** A Blobs round trip slower than this counts as failed. */
export const BLOBS_CHECK_TIMEOUT_MS = 3000;
/** Each check writes its own key (`health/probe/<stamp>`), so overlapping checks cannot overwrite each other. */
const PROBE_PREFIX = 'health/probe/';

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms));
}

/** Writes, reads back and deletes a probe record of its own; returns the round-trip time. */
export async function probeStore(store: Store, now: () => number): Promise<number> {
  const started = now();
  const stamp = `${started}-${Math.random().toString(36).slice(2)}`;
  const key = `${PROBE_PREFIX}${stamp}`;
  await Promise.race([
    (async () => {
      try {
        await store.set(key, { stamp });
        const back = await store.get<{ stamp: string }>(key);
        if (back?.value.stamp !== stamp) throw new Error('probe read back a different value');
      } finally {
        await store.delete(key);
      }
    })(),
    timeout(BLOBS_CHECK_TIMEOUT_MS),
  ]);
  return now() - started;
}

/**
 * A Blobs round trip is made at most this often per instance; checks in between (and checks that
 * overlap one in flight) report its outcome. An uptime monitor polling every few seconds, or a
 * stranger polling in a loop, costs one write a few seconds, not one per request.
 */
export const HEALTH_PROBE_REUSE_MS = 5000;

/** {@link probeStore} shared by every check within {@link HEALTH_PROBE_REUSE_MS} of the last one. */
export function sharedStoreProbe(store: () => Store, now: () => number, reuseMs = HEALTH_PROBE_REUSE_MS): () => Promise<number> {
  let last: { at: number; outcome: Promise<number> } | undefined;
  return () => {
    const at = now();
    if (!last || at - last.at >= reuseMs) last = { at, outcome: probeStore(store(), now) };
    return last.outcome;
  };
}

/** The edge of `GET /health`. */
export const HEALTH_EDGE: EdgeOptions = { methods: ['GET'], errors: PROBLEM_ERRORS };

export async function handleHealth(
  req: Request,
  deps: { build: BuildFacts; searchDocuments: () => number; probe: () => Promise<number> },
): Promise<Response> {
  requireMethod(req, ['GET']);
  let documents = 0;
  let searchOk = true;
  let searchError: string | undefined;
  try {
    documents = deps.searchDocuments();
    searchOk = documents > 0;
    if (!searchOk) searchError = 'the search index is empty';
  } catch (error) {
    searchOk = false;
    searchError = error instanceof Error ? error.message : String(error);
  }
  let blobs: { ok: boolean; latency_ms: number; error?: string };
  try {
    blobs = { ok: true, latency_ms: await deps.probe() };
  } catch (error) {
    blobs = { ok: false, latency_ms: 0, error: error instanceof Error ? error.message : String(error) };
  }
  const ok = searchOk && blobs.ok;
  const body = {
    status: ok ? 'ok' : 'degraded',
    version: deps.build.version,
    commit: deps.build.commit,
    built_at: deps.build.built_at,
    checks: {
      search_index: { ok: searchOk, documents, ...(searchError ? { error: searchError } : {}) },
      blobs,
    },
  };
  return json(body, { status: ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}
