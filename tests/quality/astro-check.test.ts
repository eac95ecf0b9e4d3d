/**
 * `astro check` (Astro's type checker: the .astro files and the TypeScript project) as one test
 * file, so it runs beside the other files instead of before all of them (it is ≈ 40 s of CPU that
 * otherwise kept both cores' test files waiting). Same command and threshold as `npm run check`'s
 * errors: any error fails the suite.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

it('astro check reports no errors', { timeout: 600_000 }, async () => {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'check', '--minimumFailingSeverity', 'error'],
    {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, output.slice(-4000)).toBe(0);
  expect(output).toMatch(/- 0 errors/);
});
