import { describe, expect, it } from 'vitest';
import { envelopeResponse, failure, isObject, JsonRpcErrorCode, parseMessage, success } from './jsonrpc.ts';

describe('parseMessage', () => {
  it.each([
    ['request', '{"jsonrpc":"2.0","id":1,"method":"ping"}', { kind: 'request', id: 1, method: 'ping', params: undefined }],
    [
      'request with string id and params',
      '{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}',
      { kind: 'request', id: 'a', method: 'm', params: { x: 1 } },
    ],
    [
      'notification',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      { kind: 'notification', method: 'notifications/initialized', params: undefined },
    ],
    // JSON-RPC 2.0 (§4) and the contract allow a null id (discouraged): a request like any other, answered with id null.
    ['request with a null id', '{"jsonrpc":"2.0","id":null,"method":"m"}', { kind: 'request', id: null, method: 'm', params: undefined }],
    ['response', '{"jsonrpc":"2.0","id":1,"result":{}}', { kind: 'response' }],
    ['parse error', '{', { code: -32700, id: null }],
    ['batch', '[]', { code: -32600, id: null }],
    ['result and error together', '{"jsonrpc":"2.0","id":4,"result":{},"error":{}}', { code: -32600, id: 4 }],
    ['empty method', '{"jsonrpc":"2.0","id":4,"method":""}', { code: -32600, id: 4 }],
  ])('%s', (_name, text, expected) => {
    expect(parseMessage(text)).toMatchObject(expected);
  });

  it.each([
    ['malformed JSON', '{', -32700, 'Parse error: the body is not valid JSON.', null],
    [
      'JSON nested too deep',
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":${'['.repeat(70)}${']'.repeat(70)}}}`,
      -32600,
      'Invalid request: the JSON nests arrays and objects more than 64 levels deep.',
      null,
    ],
    [
      'a batch',
      '[{"jsonrpc":"2.0","id":1,"method":"m"}]',
      -32600,
      'Invalid request: batching is not supported; send one JSON-RPC message per POST.',
      null,
    ],
    ['a string', '"x"', -32600, 'Invalid request: the body must be a JSON-RPC 2.0 object.', null],
    ['null', 'null', -32600, 'Invalid request: the body must be a JSON-RPC 2.0 object.', null],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":"a","method":"m"}', -32600, 'Invalid request: jsonrpc must be "2.0".', 'a'],
    ['no jsonrpc', '{"id":2,"method":"m"}', -32600, 'Invalid request: jsonrpc must be "2.0".', 2],
    ['neither method nor result', '{"jsonrpc":"2.0","id":3}', -32600, 'Invalid request: method is required.', 3],
    ['a result without an id', '{"jsonrpc":"2.0","result":{}}', -32600, 'Invalid request: method is required.', null],
    ['a method that is a number', '{"jsonrpc":"2.0","id":5,"method":5}', -32600, 'Invalid request: method must be a non-empty string.', 5],
    [
      'params that are an array',
      '{"jsonrpc":"2.0","id":6,"method":"m","params":[1]}',
      -32600,
      'Invalid request: params must be an object.',
      6,
    ],
    [
      'params that are null',
      '{"jsonrpc":"2.0","id":6,"method":"m","params":null}',
      -32600,
      'Invalid request: params must be an object.',
      6,
    ],
    [
      'an id that is an object',
      '{"jsonrpc":"2.0","id":{},"method":"m"}',
      -32600,
      'Invalid request: id must be a string, a number or null.',
      null,
    ],
    [
      'an id that is a float too big to be finite',
      '{"jsonrpc":"2.0","id":1e999,"method":"m"}',
      -32600,
      'Invalid request: id must be a string, a number or null.',
      null,
    ],
  ])('refuses %s: the code, the words, the id when readable', (_name, text, code, message, id) => {
    expect(parseMessage(text)).toEqual({ code, message, id });
  });

  it.each([
    ['an error response with a null id', '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}'],
    ['a result with a string id', '{"jsonrpc":"2.0","id":"r","result":{}}'],
  ])('accepts %s as a response', (_name, text) => expect(parseMessage(text)).toEqual({ kind: 'response' }));

  it('a notification keeps its params; a request with params keeps them', () => {
    expect(parseMessage('{"jsonrpc":"2.0","method":"n","params":{"a":1}}')).toEqual({
      kind: 'notification',
      method: 'n',
      params: { a: 1 },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":0,"method":"r"}')).toEqual({ kind: 'request', id: 0, method: 'r', params: undefined });
  });
});

describe('isObject', () => {
  it.each([
    [{}, true],
    [[], false],
    [null, false],
    ['x', false],
  ])('%j: %s', (value, expected) => expect(isObject(value)).toBe(expected));
});

describe('envelopes', () => {
  it('builds success and failure envelopes and a no-store JSON response', async () => {
    expect(success(1, {})).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(failure(null, JsonRpcErrorCode.PARSE_ERROR, 'x')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } });
    expect(failure(2, JsonRpcErrorCode.UNSUPPORTED_PROTOCOL_VERSION, 'x', { supported: [] }).error).toEqual({
      code: -32022,
      message: 'x',
      data: { supported: [] },
    });
    const res = envelopeResponse(success(1, {}), 201, { 'x-extra': '1' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-extra')).toBe('1');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(JsonRpcErrorCode).toEqual({
      PARSE_ERROR: -32700,
      INVALID_REQUEST: -32600,
      METHOD_NOT_FOUND: -32601,
      INVALID_PARAMS: -32602,
      INTERNAL_ERROR: -32603,
      HEADER_MISMATCH: -32020,
      MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
      UNSUPPORTED_PROTOCOL_VERSION: -32022,
      LEGACY_RESOURCE_NOT_FOUND: -32002,
    });
  });
});
