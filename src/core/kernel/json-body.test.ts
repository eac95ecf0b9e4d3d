import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, nestsDeeperThan, parseClientJson } from './json-body.ts';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('the JSON depth rule', () => {
  it.each([
    ['arrays at the limit', nested(JSON_MAX_DEPTH), false],
    ['arrays one past it', nested(JSON_MAX_DEPTH + 1), true],
    ['objects one past it', `${'{"a":'.repeat(JSON_MAX_DEPTH + 1)}1${'}'.repeat(JSON_MAX_DEPTH + 1)}`, true],
    ['brackets inside strings', `["${'['.repeat(500)}"]`, false],
    ['an escaped quote inside a string', `["\\"${'['.repeat(500)}"]`, false],
    ['an escaped backslash before the closing quote', `["\\\\", ${nested(3)}]`, false],
    ['a long flat array', `[${new Array(200).fill(1).join(',')}]`, false],
    ['many sibling arrays', `[${'[],'.repeat(100)}[]]`, false],
    ['many sibling objects', `{${Array.from({ length: 100 }, (_, i) => `"k${i}":{}`).join(',')}}`, false],
    ['8 KB of metadata nesting (the A2A report)', `{"metadata":${'{"a":'.repeat(4000)}1${'}'.repeat(4001)}`, true],
  ])('%s', (_name, text, deeper) => expect(nestsDeeperThan(text, JSON_MAX_DEPTH)).toBe(deeper));

  it('parses what is allowed and names why it refuses the rest', () => {
    expect(parseClientJson('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
    expect(parseClientJson('{"a":')).toEqual({ ok: false, problem: 'malformed' });
    expect(parseClientJson(nested(10_000))).toEqual({ ok: false, problem: 'too-deep' });
  });
});
