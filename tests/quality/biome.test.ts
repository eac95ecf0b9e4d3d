/**
 * The sources are formatted and lint-clean: `biome ci . --error-on-warnings` (format check + lint, biome.json) exits 0.
 * It runs here so `npm test` holds every change to the house style; `npm run format` fixes the layout.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');
const BIOME_TIMEOUT_MS = 60_000;
const execFileAsync = promisify(execFile);

describe('Biome', () => {
  it('biome ci . reports no formatting or lint finding', async () => {
    const outcome = await execFileAsync(BIOME, ['ci', '.', '--error-on-warnings', '--colors=off'], {
      cwd: ROOT,
      timeout: BIOME_TIMEOUT_MS,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
      (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
        code: error.code ?? 'failed',
        output: `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
      }),
    );
    expect(outcome.code, `biome ci . failed (run npm run format, then npm run lint):\n${outcome.output}`).toBe(0);
  });
});
