import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { strictObjectMessage } from './field-messages.ts';

const Schema = v.strictObject({ page: v.string('page must be text'), text: v.optional(v.string()) }, strictObjectMessage);
const messages = (input: unknown) => v.safeParse(Schema, input, { abortEarly: false }).issues?.map((i) => [v.getDotPath(i), i.message]);

describe('strictObjectMessage', () => {
  it('says which field is unknown or missing, and that an object is expected, without the library words', () => {
    expect(messages({ page: 'a', extra: 1 })).toEqual([['extra', 'unknown field "extra"']]);
    expect(messages({})).toEqual([['page', 'page is required']]);
    expect(messages(5)).toEqual([[null, 'expected a JSON object']]);
    expect(messages({ page: 5 })).toEqual([['page', 'page must be text']]);
  });
});
