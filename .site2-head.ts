import { startRuntime } from './scripts/runtime/index.ts';
const runtime = await startRuntime({});
for (const p of process.argv.slice(2)) {
  const r = await runtime.handle(new Request('http://localhost:8899' + p));
  console.log(p, r.status, [...r.headers].filter(([k]) => /link|content-security|content-type|cache|vary|access-control/.test(k)).map(([k, v]) => `\n  ${k}: ${v}`).join(''));
}
await runtime.stop();
