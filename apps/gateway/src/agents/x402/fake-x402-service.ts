import { ok, PayX402, type ResponseOf, type Result, X402_PUBLIC_AMOUNT_NOTICE } from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';
import { FakeService } from '../../testing/fake-service';

/** transfer-service's x402 payments on an in-process bus, for the gateway's tests: each call signs a new payment. */
export class FakeX402Service extends FakeService {
  constructor(bus: InProcessBus) {
    super(bus);
    this.on(PayX402, (request): Result<ResponseOf<typeof PayX402>> => {
      const n = this.calls(PayX402).length;
      return ok({
        kind: 'payment',
        payment: {
          payment_id: `x402_${n}`,
          status: 'signed',
          resource: request.resource,
          scheme: 'exact',
          network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
          pay_to: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
          asset: 'USDC',
          amount: '0.01',
          amount_base_units: '10000',
          header_name: 'PAYMENT-SIGNATURE',
          payment_signature: `signature-${n}`,
          amount_public: true,
          notice: X402_PUBLIC_AMOUNT_NOTICE,
          chain_signature: null,
          created_at: '2030-01-01T00:00:00.000Z',
          settled_at: null,
        },
      });
    });
  }
}
