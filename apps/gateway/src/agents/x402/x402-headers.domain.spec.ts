import { decodeX402Header, settledTransactionOf } from './x402-headers.domain';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('x402 headers', () => {
  it('decodes a base64 JSON object, as the x402 packages encode PAYMENT-REQUIRED', () => {
    expect(decodeX402Header(b64({ x402Version: 2, accepts: [] }))).toEqual({ x402Version: 2, accepts: [] });
  });

  it('refuses what is not base64 of a JSON object', () => {
    expect(decodeX402Header('not base64!')).toBeNull();
    expect(decodeX402Header(Buffer.from('{broken').toString('base64'))).toBeNull();
    expect(decodeX402Header(b64([1, 2]))).toBeNull();
    expect(decodeX402Header(b64('text'))).toBeNull();
  });

  it('reads the settling transaction of a PAYMENT-RESPONSE header', () => {
    expect(settledTransactionOf(b64({ success: true, transaction: '5sig', network: 'solana:x' }))).toBe(
      '5sig',
    );
    expect(settledTransactionOf(b64({ success: false, transaction: '' }))).toBeNull();
    expect(settledTransactionOf('%%')).toBeNull();
  });
});
