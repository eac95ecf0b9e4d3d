/** Every built page is valid HTML under html-validate's recommended rules (.htmlvalidate.json). */
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('html-validate', () => {
  it('finds no errors in any dist/**/*.html', async () => {
    const files = globSync('dist/**/*.html', { cwd: ROOT }).sort();
    // Every sitemap page plus the 404 page was built (the check is not vacuous).
    const sitemap = readFileSync(path.join(ROOT, 'dist', 'sitemap.xml'), 'utf8');
    const pages = [...sitemap.matchAll(/<loc>/g)].length;
    expect(pages).toBeGreaterThan(10);
    expect(files.length).toBeGreaterThanOrEqual(pages + 1);

    const validator = new HtmlValidate(new FileSystemConfigLoader());
    const errors: string[] = [];
    for (const file of files) {
      const report = await validator.validateFile(path.join(ROOT, file));
      for (const result of report.results) {
        for (const m of result.messages) {
          if (m.severity >= 2) errors.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message} ${m.selector ?? ''}`);
        }
      }
    }
    const shown = errors.slice(0, 40).join('\n') + (errors.length > 40 ? `\n… and ${errors.length - 40} more` : '');
    expect(errors.length, `html-validate errors:\n${shown}`).toBe(0);
  });
});
