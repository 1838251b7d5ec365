import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { RestError } from '../../src/engine/errors.ts';
import {
  OutboundForbiddenAddressError,
  OutboundNetworkError,
  OutboundStatusError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  OutboundUrlError,
  outboundRestError,
  type OutboundAnswers,
} from '../../src/net/errors.ts';

const answers: OutboundAnswers = {
  url: () => new RestError('own_invalid_url', 'Not Found', 404),
  forbidden_address: (e) => ({ code: 'own_forbidden', message: `No calls to ${e.address}.` }),
  timeout: 'own_timeout',
  too_large: (e) => ({ code: 'own_too_large', message: `Over ${e.maxBytes} bytes.`, status: 400 }),
  status: (e) => ({ code: 'http_404', message: 'Internal Server Error', data: { code: e.status } }),
  unreachable: 'own_unreachable',
};

const body = (e: unknown) => (e as RestError).toBody();

describe('outboundRestError: one mapping from an outbound failure to the error a route answers', () => {
  test('each kind, with the default statuses (400 for a URL not called, 504 for silence, 502 otherwise) and messages', () => {
    assert.deepEqual(body(outboundRestError(new OutboundUrlError('The URL is not valid.', ''), answers)), { code: 'own_invalid_url', message: 'Not Found', data: { status: 404 } });
    assert.deepEqual(body(outboundRestError(new OutboundForbiddenAddressError('intranet:8080', '10.0.0.7'), answers)), { code: 'own_forbidden', message: 'No calls to 10.0.0.7.', data: { status: 400 } });
    assert.deepEqual(body(outboundRestError(new OutboundTimeoutError('slow.example', 1500), answers)), { code: 'own_timeout', message: 'slow.example did not answer within 1500 ms.', data: { status: 504 } });
    assert.deepEqual(body(outboundRestError(new OutboundTooLargeError('big.example', 1024), answers)), { code: 'own_too_large', message: 'Over 1024 bytes.', data: { status: 400 } });
    assert.deepEqual(body(outboundRestError(new OutboundStatusError('img.example', 500, 'oops'), answers)), { code: 'http_404', message: 'Internal Server Error', data: { status: 502, code: 500 } });
    assert.deepEqual(body(outboundRestError(new OutboundNetworkError('Could not reach down.example: ECONNREFUSED.', 'down.example'), answers)), {
      code: 'own_unreachable',
      message: 'Could not reach down.example: ECONNREFUSED.',
      data: { status: 502 },
    });
  });

  test('anything that is not an outbound failure is passed on as it is', () => {
    const bug = new TypeError('x is undefined');
    assert.equal(outboundRestError(bug, answers), bug);
  });
});
