/**
 * The store sweep at scale (issue 24): the hourly `store-sweep` (src/core/kernel/expiry.ts, walking
 * the expiry index with a 20 s budget per run) against the previous sweep, which listed the whole
 * `oauth` store and read every record one after another, on the local Netlify Blobs server (files on
 * disk, the same server `npm start` uses) in this process.
 *
 *     node bench/sweep.bench.ts [--records 100000] [--budget-ms 20000]
 *
 * Two stores of `--records` OAuth records (registrations, codes, grants, refresh markers, revocations
 * in equal shares), each written as `setExpiring` writes them (the record and its index entry):
 * - **expired**: every record ended yesterday; the sweep must delete all of them;
 * - **live**: every record ends in 30 days; a sweep run must find nothing to do.
 * Seeding writes the files directly (the layout the local server reads), which is not measured.
 * Reports wall time and this process's CPU (the Blobs server runs in it too), runs needed at the
 * budget, and milliseconds per record. The previous sweep is measured on copies of the same stores.
 * @module
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blobsStore } from '../netlify/functions/_shared/blobs-store.ts';
import { startLocalBlobs } from '../scripts/runtime/local-blobs.ts';
import { EXPIRY_INDEX_PREFIX, sweepExpired, utcDay } from '../src/core/kernel/expiry.ts';
import type { Store } from '../src/core/kernel/store.ts';
import { OAUTH_SWEEP_POLICY } from '../src/core/oauth/grants/sweep.ts';
import { argValue } from './generate-corpus.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const RECORDS = Number(argValue(argv, 'records') ?? 100_000);
const BUDGET_MS = Number(argValue(argv, 'budget-ms') ?? 20_000);
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;
const TOKEN = 'sweep-bench';
const SITE = '0';

/** A record of each kind, ending at `end`, under a unique key. */
function record(i: number, end: number): [string, unknown] {
  const id = `${i.toString(36).padStart(8, '0')}${'x'.repeat(14)}`;
  switch (i % 5) {
    case 0:
      return [
        `client/agt_${id}`,
        {
          client_id: `agt_${id}`,
          client_secret_sha256: 'a'.repeat(64),
          client_name: 'bench agent',
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: 'client_secret_basic',
          scope: ['articles:read'],
          client_id_issued_at: end - 30 * DAY,
          registration_type: 'anonymous',
          claim: { status: 'unclaimed', token_sha256: 'b'.repeat(64), token_expires_at: end },
          expires_at: end,
          last_used_at: end - 30 * DAY,
        },
      ];
    case 1:
      return [`code-used/${id}`, { grant_id: `grt_${id}`, expires_at: end }];
    case 2:
      return [
        `grant/grt_${id}`,
        {
          grant_id: `grt_${id}`,
          client_id: 'agt_x',
          subject: 'anon',
          scope: 'articles:read',
          resource: 'https://site.example/mcp',
          created_at: end - 100 * DAY,
          // grantKeepUntil adds a token lifetime and the skew to ends_at.
          ends_at: end - 3600 - 30,
          revoked_at: null,
          access_tokens: [],
        },
      ];
    case 3:
      return [`answered/${id}`, { expires_at: end }];
    default:
      return [`revoked/${id}`, { jti: id, exp: end }];
  }
}

/** Writes `count` records ending at `end`, each with its index entry, as files of the local server. */
function seed(dir: string, count: number, end: number): void {
  const storeDir = path.join(dir, 'entries', SITE, 'site:oauth');
  const day = utcDay(end);
  const made = new Set<string>();
  const write = (key: string, text: string): void => {
    const file = path.join(storeDir, ...key.split('/'));
    const parent = path.dirname(file);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(file, text);
  };
  for (let i = 0; i < count; i++) {
    const [key, value] = record(i, end);
    write(`${EXPIRY_INDEX_PREFIX}${day}/${key}`, '0');
    write(key, JSON.stringify(value));
  }
}

/** The previous sweep (before the expiry index): list the whole store, read and judge each record in turn. */
async function fullScanSweep(store: Store, nowSeconds: number): Promise<number> {
  let deleted = 0;
  for (const key of await store.list()) {
    if (key.startsWith(EXPIRY_INDEX_PREFIX)) continue; // the index did not exist then
    const found = await store.get(key);
    if (!found) continue;
    const end = await OAUTH_SWEEP_POLICY.expiresAt(key, found.value, store);
    if (end !== null && end <= nowSeconds) {
      await store.delete(key);
      deleted++;
    }
  }
  return deleted;
}

function countFiles(dir: string): number {
  let n = 0;
  const visit = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) entry.isDirectory() ? visit(path.join(d, entry.name)) : n++;
  };
  if (existsSync(dir)) visit(dir);
  return n;
}

interface Measure {
  wallS: number;
  cpuS: number;
  runs: number;
  deleted: number;
}

async function measure(task: () => Promise<{ runs: number; deleted: number }>): Promise<Measure> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { runs, deleted } = await task();
  const used = process.cpuUsage(cpu);
  return { wallS: (performance.now() - started) / 1000, cpuS: (used.user + used.system) / 1e6, runs, deleted };
}

async function onStore<T>(dir: string, task: (store: Store) => Promise<T>): Promise<T> {
  const server = await startLocalBlobs(dir, TOKEN, { owner: true });
  try {
    return await task(blobsStore('oauth', { siteID: SITE, token: TOKEN, edgeURL: server.url, uncachedEdgeURL: server.url }));
  } finally {
    await server.stop();
  }
}

/** The hourly function's runs, back to back, until the sweep says it is done. */
const indexSweep = (store: Store) => async (): Promise<{ runs: number; deleted: number }> => {
  let runs = 0;
  let deleted = 0;
  for (;;) {
    const report = await sweepExpired(store, OAUTH_SWEEP_POLICY, { nowSeconds: NOW, clockMs: Date.now, budgetMs: BUDGET_MS });
    runs++;
    deleted += Object.values(report.deleted).reduce((a, b) => a + b, 0);
    if (report.done) return { runs, deleted };
  }
};

const scratch = mkdtempSync(path.join(tmpdir(), 'sweep-bench-'));
try {
  const expired = path.join(scratch, 'expired');
  const live = path.join(scratch, 'live');
  let t = performance.now();
  seed(expired, RECORDS, NOW - DAY);
  seed(live, RECORDS, NOW + 30 * DAY);
  cpSync(expired, `${expired}-before`, { recursive: true });
  cpSync(live, `${live}-before`, { recursive: true });
  // The sweep's first run starts its cursor and skips the backfill, as on a store written since the index existed.
  for (const dir of [expired, live])
    await onStore(dir, (store) => store.set('sweep/state', { day: utcDay(NOW - 2 * DAY), backfill: 'done' }));
  console.error(`seeded 4 stores of ${RECORDS} records in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const rows: [string, string, Measure][] = [];
  t = performance.now();
  rows.push(['expired', 'store-sweep (expiry index)', await onStore(expired, (store) => measure(indexSweep(store)))]);
  rows.push([
    'expired',
    'previous sweep (full scan)',
    await onStore(`${expired}-before`, (store) => measure(async () => ({ runs: 1, deleted: await fullScanSweep(store, NOW) }))),
  ]);
  console.error(`after the expired stores: live ${countFiles(path.join(live, 'entries'))} files`);
  rows.push(['live', 'store-sweep (expiry index)', await onStore(live, (store) => measure(indexSweep(store)))]);
  rows.push([
    'live',
    'previous sweep (full scan)',
    await onStore(`${live}-before`, (store) => measure(async () => ({ runs: 1, deleted: await fullScanSweep(store, NOW) }))),
  ]);
  console.error(`measured in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // What is left in each store: the expired ones empty of records, the live ones untouched.
  for (const dir of [expired, `${expired}-before`, live, `${live}-before`])
    console.error(`${path.basename(dir)}: ${countFiles(path.join(dir, 'entries'))} files left`);

  console.log(
    `\n${RECORDS.toLocaleString('en')} records per store, budget ${BUDGET_MS / 1000} s per run, local Blobs server (in process)\n`,
  );
  console.log('| store | sweep | wall s | CPU s | runs | deleted | ms per record |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [store, sweep, m] of rows)
    console.log(
      `| ${store} | ${sweep} | ${m.wallS.toFixed(2)} | ${m.cpuS.toFixed(2)} | ${m.runs} | ${m.deleted} | ${((m.wallS * 1000) / RECORDS).toFixed(3)} |`,
    );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
