/** The claude.ai version-header workaround: which pair is tolerated, and how much it may log. */
import { describe, expect, it } from 'vitest';
import { isToleratedVersionPair, MAX_LOGGED_CLIENTS, ToleratedPairLog } from './claude-ai-version-header.ts';

describe('isToleratedVersionPair', () => {
  it.each([
    ['2025-11-25', '2026-07-28', true],
    ['2025-06-18', '2026-07-28', false],
    ['2025-03-26', '2026-07-28', false],
    ['2026-07-28', '2025-11-25', false],
    ['2025-11-25', '2025-11-25', false],
    [null, '2026-07-28', false],
    ['2025-11-25', 7, false],
  ])('header %s over a %s body: %s', (header, meta, tolerated) => {
    expect(isToleratedVersionPair(header, meta)).toBe(tolerated);
  });
});

describe('ToleratedPairLog', () => {
  it('logs each client once, at most a few clients, then one line saying it stops', () => {
    const lines: string[] = [];
    const log = new ToleratedPairLog();
    const note = (name: string) => log.note('2025-11-25', '2026-07-28', name, (line) => lines.push(line));
    note('Anthropic/ClaudeAI');
    note('Anthropic/ClaudeAI');
    expect(lines).toHaveLength(1);
    // A client choosing a new name for every request cannot make the log grow past the bound.
    for (let i = 0; i < 100; i++) note(`made-up-${i}`);
    expect(lines).toHaveLength(MAX_LOGGED_CLIENTS + 1);
    expect(lines.at(-1)).toMatch(/more clients .* not logged again/);
    expect(lines.slice(0, MAX_LOGGED_CLIENTS).every((line) => line.includes('sent MCP-Protocol-Version 2025-11-25'))).toBe(true);
  });

  it('quotes the name as JSON, so a name cannot forge a log line', () => {
    const lines: string[] = [];
    new ToleratedPairLog().note('2025-11-25', '2026-07-28', 'x"\nMCP: forged', (line) => lines.push(line));
    expect(lines[0]).toContain('client "x\\"\\nMCP: forged" sent');
    expect(lines[0]).not.toContain('\n');
  });
});
