import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { invalidParam } from '../../src/engine/errors.ts';

describe('invalidParam: one refused param, as WP_REST_Request::has_valid_params answers it', () => {
  test('a validate_callback that returned a WP_Error: its message under params, the error under details', () => {
    assert.deepEqual(invalidParam('timezone', 'timezone is not a valid time zone.').toBody(), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): timezone',
      data: {
        status: 400,
        params: { timezone: 'timezone is not a valid time zone.' },
        details: { timezone: { code: 'rest_invalid_param', message: 'timezone is not a valid time zone.', data: null } },
      },
    });
  });

  test("the schema check's own code and data", () => {
    assert.deepEqual(invalidParam('user_id', 'user_id is not of type integer.', { code: 'rest_invalid_type', data: { param: 'user_id' } }).toBody(), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): user_id',
      data: {
        status: 400,
        params: { user_id: 'user_id is not of type integer.' },
        details: { user_id: { code: 'rest_invalid_type', message: 'user_id is not of type integer.', data: { param: 'user_id' } } },
      },
    });
  });

  test('a validate_callback that returned false: "Invalid parameter." and no details', () => {
    assert.deepEqual(invalidParam('url').toBody(), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): url',
      data: { status: 400, params: { url: 'Invalid parameter.' }, details: [] },
    });
  });
});
