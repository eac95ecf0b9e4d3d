import { startFixtureServer } from './tests/fixtures/agent-ready/site.ts';
import { execFile } from 'node:child_process';
const site = await startFixtureServer();
const out = await new Promise<string>((r) => execFile(process.execPath, ['tools/agent-ready/node/cli.ts', site.origin, '--no-browser', ...process.argv.slice(2)], (_e, so, se) => r(so + se)));
console.log(out);
await site.close();
