/**
 * `npm run enquiries -- [list|json|csv] [--production]`: read contact enquiries from Blobs.
 * Locally it opens the Blobs `npm start` writes (.netlify/blobs-serve, or NETLIFY_LOCAL_BLOBS_DIR);
 * with --production it reads the deployed site's Blobs (NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN).
 */
import { BlobsServer } from '@netlify/blobs/server';
import { blobsStore } from '../netlify/functions/_shared/blobs-store.ts';
import { localBlobsDir } from './local-blobs-dir.ts';
import type { Enquiry } from '../src/core/api/contact.ts';
import type { Store } from '../src/core/storage/store.ts';

/** The site ID under which the local runtime (as @netlify/dev did) keeps an unlinked project's Blobs. */
const LOCAL_SITE_ID = '0';
const FORMATS = ['list', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

/** Reads every enquiry, oldest first. */
export async function readEnquiries(store: Store): Promise<Enquiry[]> {
  const keys = (await store.list('enquiry/')).sort();
  const records = await Promise.all(keys.map((key) => store.get<Enquiry>(key)));
  return records.filter((r) => r !== null).map((r) => r.value);
}

const CSV_COLUMNS = ['id', 'received_at', 'name', 'email', 'company', 'message', 'notification'] as const;

function csvCell(value: string): string {
  // Quote always; double quotes inside; neutralise spreadsheet formulas (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function formatEnquiries(enquiries: readonly Enquiry[], format: Format): string {
  if (format === 'json') return JSON.stringify(enquiries, null, 2) + '\n';
  if (format === 'csv') {
    const rows = enquiries.map((e) => CSV_COLUMNS.map((c) => csvCell(c === 'notification' ? e.notification.status : String(e[c] ?? ''))).join(','));
    return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
  }
  if (enquiries.length === 0) return 'No enquiries.\n';
  return enquiries.map((e) => `${e.received_at}  ${e.id}  ${e.name} <${e.email}>${e.company ? ` (${e.company})` : ''}  [notification: ${e.notification.status}]\n    ${e.message.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n') + '\n';
}

async function main(args: string[]): Promise<void> {
  const format = (args.find((a) => !a.startsWith('--')) ?? 'list') as Format;
  if (!FORMATS.includes(format)) throw new Error(`Unknown format "${format}": use ${FORMATS.join(', ')}`);
  if (args.includes('--production')) {
    const siteID = process.env.NETLIFY_SITE_ID;
    const token = process.env.NETLIFY_AUTH_TOKEN;
    if (!siteID || !token) throw new Error('--production needs NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN (a personal access token)');
    process.stdout.write(formatEnquiries(await readEnquiries(blobsStore('enquiries', { siteID, token })), format));
    return;
  }
  const token = 'local-enquiries-reader';
  const server = new BlobsServer({ directory: localBlobsDir(), token, port: 0 });
  const { port } = await server.start();
  try {
    const edgeURL = `http://127.0.0.1:${port}`;
    const store = blobsStore('enquiries', { siteID: LOCAL_SITE_ID, token, edgeURL, uncachedEdgeURL: edgeURL });
    process.stdout.write(formatEnquiries(await readEnquiries(store), format));
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
