/**
 * `npm run keys`: signing keys for OAuth access tokens and for Web Bot Auth (the site's signed
 * outbound requests). Run with `--help` for the usage; nothing is generated or changed then.
 */
import { parseArgs } from 'node:util';
import { blobsStore } from '../netlify/functions/_shared/blobs-store.ts';
import { localBlobsDir } from './runtime/local-blobs-dir.ts';
import { generateKeyRecord, liveRecords, parseKeyRecords, rotate, rotateStoredKeys } from '../src/core/oauth/grants/keys.ts';
import {
  KEYS_ENV,
  parseSigningKeys,
  PREPUBLISH_SECONDS,
  publishedKeys,
  RETIREMENT_OVERLAP_SECONDS,
  rotateKeys,
  rotateStoredKeys as rotateStoredBotKeys,
} from '../src/core/web-bot-auth/keys.ts';
import type { Store } from '../src/core/kernel/store.ts';
import { parseEnv } from '../src/core/config.ts';
import { startLocalBlobs } from './runtime/local-blobs.ts';

const USAGE = `Usage: npm run keys -- [--web-bot-auth] [--rotate [--local]] [--help]

Signing keys, printed as the value of an environment variable (set it as a secret and redeploy).

  (no option)        print a new OAUTH_SIGNING_KEYS value: one fresh RS256 key for access tokens
  --rotate           read OAUTH_SIGNING_KEYS from the environment, add a new active key, keep the
                     old one published until the tokens it signed expire, print the new value
  --local            with --rotate: rotate the key kept in local Blobs (what \`npm start\` uses)
  --web-bot-auth     the same for ${KEYS_ENV}: the Ed25519 keys that sign the site's
                     outbound requests (webhooks, feed fetches) and its key directory. A rotated
                     key is published at once and signs ${PREPUBLISH_SECONDS / 60} minutes later (one directory cache
                     lifetime); the old key signs until then and stays published ${RETIREMENT_OVERLAP_SECONDS / 60} minutes longer.
  -h, --help         print this help and change nothing

Examples:
  npm run keys -- --web-bot-auth                  first ${KEYS_ENV} value
  ${KEYS_ENV}='…' npm run keys -- --web-bot-auth --rotate
  npm run keys -- --web-bot-auth --rotate --local
`;

/** Exit codes: 0 done, 1 failed (bad current value, storage), 2 usage error. */
function parseOptions(): { help: boolean; rotate: boolean; local: boolean; webBotAuth: boolean } {
  try {
    const { values } = parseArgs({
      options: {
        help: { type: 'boolean', short: 'h' },
        rotate: { type: 'boolean' },
        local: { type: 'boolean' },
        'web-bot-auth': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.local && !values.rotate) throw new Error('--local needs --rotate');
    return {
      help: values.help ?? false,
      rotate: values.rotate ?? false,
      local: values.local ?? false,
      webBotAuth: values['web-bot-auth'] ?? false,
    };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    process.exit(2);
  }
}

/** Runs `task` on the local Blobs store `keys`, through a Blobs server started for it. */
async function withLocalKeysStore<T>(task: (store: Store) => Promise<T>): Promise<T> {
  const token = 'local-keys-tool';
  const server = await startLocalBlobs(localBlobsDir(), token, { owner: false });
  try {
    return await task(blobsStore('keys', { siteID: '0', token, edgeURL: server.url, uncachedEdgeURL: server.url }));
  } finally {
    await server.stop();
  }
}

/**
 * `--rotate` reads the current value from the environment: unset, say so and how to start, rather than the parser's
 * "is not JSON" for an empty value (stranger s9b, 7). Exit 1, as for a bad value.
 */
function assertSetForRotation(name: string, first: string, local: string): void {
  if (process.env[name]?.trim()) return;
  throw new Error(
    `${name} is not set, so there is no key to rotate. To start, make the first key with \`${first}\` and set its output as ` +
      `${name} (secret); to rotate the local key npm start uses, run \`${local}\`.`,
  );
}

async function oauthKeys(options: { rotate: boolean; local: boolean }, now: number): Promise<void> {
  if (options.local) {
    const records = await withLocalKeysStore((store) => rotateStoredKeys(store, now));
    console.log(
      `Rotated the local signing key. Active kid: ${records[0]!.kid}; published: ${liveRecords(records, now)
        .map((r) => r.kid)
        .join(', ')}`,
    );
    return;
  }
  if (options.rotate) assertSetForRotation('OAUTH_SIGNING_KEYS', 'npm run keys', 'npm run keys -- --rotate --local');
  const records = options.rotate
    ? liveRecords(await rotate(parseKeyRecords(parseEnv(process.env, ['OAUTH_SIGNING_KEYS']).OAUTH_SIGNING_KEYS ?? ''), now), now)
    : [await generateKeyRecord(now)];
  console.error(`Active kid: ${records[0]!.kid}. Set this as the OAUTH_SIGNING_KEYS environment variable (secret) and redeploy:\n`);
  console.log(JSON.stringify(records));
}

async function webBotAuthKeys(options: { rotate: boolean; local: boolean }, now: number): Promise<void> {
  if (options.local) {
    const keys = await withLocalKeysStore((store) => rotateStoredBotKeys(store, now));
    console.log(
      `Rotated the local Web Bot Auth key. New kid: ${keys[0]!.kid} (signs from ${new Date(keys[0]!.nbf * 1000).toISOString()}); published: ${publishedKeys(
        keys,
        now,
      )
        .map((k) => k.kid)
        .join(', ')}`,
    );
    return;
  }
  if (options.rotate) assertSetForRotation(KEYS_ENV, 'npm run keys -- --web-bot-auth', 'npm run keys -- --web-bot-auth --rotate --local');
  const current = options.rotate ? (parseEnv(process.env, [KEYS_ENV]).WEB_BOT_AUTH_SIGNING_KEYS?.keys ?? parseSigningKeys('')) : [];
  const keys = await rotateKeys(current, now);
  console.error(
    `New kid: ${keys[0]!.kid}, signs from ${new Date(keys[0]!.nbf * 1000).toISOString()}. Set this as the ${KEYS_ENV} environment variable (secret) and redeploy:\n`,
  );
  console.log(JSON.stringify({ keys }));
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const now = Math.floor(Date.now() / 1000);
  await (options.webBotAuth ? webBotAuthKeys(options, now) : oauthKeys(options, now));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
