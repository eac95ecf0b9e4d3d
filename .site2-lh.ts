// Temporary diagnostic (not committed): Lighthouse agentic-browsing on page types, free port.
import type { AddressInfo } from 'node:net';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './tools/agent-ready/node/chromium.ts';
import { serve, startRuntime } from './scripts/runtime/index.ts';
const targets = process.argv.slice(2);
const runtime = await startRuntime({});
const { server } = await serve(runtime, 0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
try {
  for (const t of targets) {
    const r = await lighthouse(base + t, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['agentic-browsing'] });
    const lhr = r!.lhr;
    const cat = lhr.categories['agentic-browsing']!;
    console.log(t, cat.score, cat.auditRefs.map((a) => `${a.id}=${lhr.audits[a.id]?.score}${lhr.audits[a.id]?.explanation ? ' (' + lhr.audits[a.id]?.explanation + ')' : ''}`).join(' '));
    const ard = (r!.artifacts as any).AgentResourceDiscovery;
    console.log('  details', JSON.stringify((lhr.audits['ard-schema'] as any)?.details?.items));
    console.log('  ard', JSON.stringify({ status: ard.status, url: ard.catalogUrl, signals: ard.discoverySignals, err: ard.errorMessage }));
  }
} finally {
  chrome.kill();
  server.closeAllConnections();
  server.close();
  await runtime.stop();
}
