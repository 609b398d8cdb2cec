import { generateSealingKey } from '@cts/crypto';
import { type GatewaySettings } from '../gateway.settings';
import { AmountSealer } from './amount-sealer';
import { CreateTransferBody } from './transfers.schemas';

describe('CreateTransferBody', () => {
  const body = (fields: object) => CreateTransferBody.safeParse({ to: '@bob', amount: '1', ...fields });

  it('refuses a memo with a lone surrogate, which would be encrypted as U+FFFD instead', () => {
    const refused = body({ memo: 'note \ud800' });

    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['memo'],
      message: 'must be well-formed Unicode (no lone surrogate)',
    });
    expect(body({ memo: 'héllo ✓ 😀' }).success).toBe(true);
  });

  it('leaves an amount with more decimals than any asset has to the sealer, which names the asset’s limit', () => {
    const sealer = new AmountSealer({ dataSealingKey: () => generateSealingKey() } as GatewaySettings);

    expect(body({ amount: '0.0000000001', asset: 'SOL' }).success).toBe(true);
    expect(() => sealer.sealAmount('acct_1', '0.0000000001', 'SOL')).toThrow(
      'amount has more than 9 decimals (SOL)',
    );
    expect(body({ amount: '1e3' }).success).toBe(false);
    expect(body({ amount: '0.000' }).success).toBe(false);
    expect(body({ amount: '01.5' }).success).toBe(false);
  });
});
