import { CtsApiError, CtsNetworkError } from '@cts/sdk';
import { describeFailure, guarded, resourceFetchFailure, structured } from './tool-results';

describe('tool results', () => {
  it('carries the data both structured and as text', () => {
    const result = structured({ status: 'confirmed', transfer_id: 'tr_1' });
    expect(result.structuredContent).toEqual({ status: 'confirmed', transfer_id: 'tr_1' });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    expect(result.isError).toBeUndefined();
    const refused = structured({ status: 'refused', message: 'above the limit' }, { isError: true });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toEqual({ type: 'text', text: 'above the limit' });
    expect(JSON.parse((refused.content[1] as { text: string }).text)).toEqual(refused.structuredContent);
  });

  it('turns a refused key into advice, not a retry loop', () => {
    const failure = describeFailure(
      new CtsApiError({ status: 401, code: 'unauthorized', message: 'Invalid API key' }),
    );
    expect(failure.code).toBe('unauthorized');
    expect(failure.message).toMatch(/API key .* was refused.*Retrying will not help/);
  });

  it('keeps the code, message and parameter of other API errors, and says a network failure may be retried with the same key', () => {
    const invalid = describeFailure(
      new CtsApiError({
        status: 400,
        code: 'invalid_request',
        message: 'amount has too many decimals',
        param: 'amount',
      }),
    );
    expect(invalid.message).toBe('amount has too many decimals (amount) [invalid_request, HTTP 400]');
    const down = describeFailure(
      new CtsNetworkError('fetch failed', { cause: new Error('ECONNREFUSED'), timedOut: false }),
    );
    expect(down).toMatchObject({ code: 'unreachable' });
    expect(down.message).toMatch(/same idempotency_key/);
  });

  it("tells a resource fetch's failure by its cause, and nothing else as one", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(resourceFetchFailure(new TypeError('fetch failed', { cause: refused }))).toBe(
      'connect ECONNREFUSED 127.0.0.1:9',
    );
    const tls = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    expect(resourceFetchFailure(new TypeError('fetch failed', { cause: tls }))).toBe(
      'CERT_HAS_EXPIRED: certificate has expired',
    );
    expect(resourceFetchFailure(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe(
      'bad port',
    );
    expect(resourceFetchFailure(new TypeError('x is not a function'))).toBeNull();
    expect(resourceFetchFailure(new Error('fetch failed', { cause: refused }))).toBeNull();
  });

  it('turns any thrown error into a tool error with its first line only', async () => {
    const error = new Error('boom\n    at secret (file.ts:1:1)');
    const result = await guarded(() => Promise.reject(error));
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Unexpected failure in the MCP server: boom' }]);
  });
});
