import { describe, expect, it } from 'vitest';
import { envelopeResponse, failure, JsonRpcErrorCode, parseMessage, success } from './jsonrpc.ts';

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
    ['response', '{"jsonrpc":"2.0","id":1,"result":{}}', { kind: 'response' }],
    ['parse error', '{', { code: -32700, id: null }],
    ['batch', '[]', { code: -32600, id: null }],
    ['result and error together', '{"jsonrpc":"2.0","id":4,"result":{},"error":{}}', { code: -32600, id: 4 }],
    ['empty method', '{"jsonrpc":"2.0","id":4,"method":""}', { code: -32600, id: 4 }],
  ])('%s', (_name, text, expected) => {
    expect(parseMessage(text)).toMatchObject(expected);
  });
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
    const res = envelopeResponse(success(1, {}), 200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
