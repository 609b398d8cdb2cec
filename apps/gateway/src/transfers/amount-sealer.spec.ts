import { balanceSealingContext, decryptionProofSealingContext } from '@cts/contracts';
import { generateSealingKey, parseSealingKey, sealAmount, unseal, utf8Decode } from '@cts/crypto';
import { type GatewaySettings } from '../gateway.settings';
import { AmountSealer } from './amount-sealer';

const keyBase64 = generateSealingKey();
const key = parseSealingKey(keyBase64);
const sealer = new AmountSealer({ dataSealingKey: () => keyBase64 } as GatewaySettings);

describe('AmountSealer: the balances call', () => {
  it('seals the decryption proof for the account that sent it, never in the clear', () => {
    const proof = '{"v":1,"proofs":[{"asset":"USDC","amount":"3765.432109"}]}';
    const sealed = sealer.sealDecryptionProof('acct_a', proof);
    expect(sealed).not.toContain('3765');
    expect(utf8Decode(unseal(key, sealed, decryptionProofSealingContext('acct_a')))).toBe(proof);
    expect(() => unseal(key, sealed, decryptionProofSealingContext('acct_b'))).toThrow(/does not open/);
  });

  it('opens a proven balance sealed for this account and asset only', () => {
    const sealed = sealAmount(key, 3_765_432_109n, balanceSealingContext('acct_a', 'USDC'));
    expect(sealer.openBalance('acct_a', 'USDC', sealed)).toBe('3765.432109');
    expect(() => sealer.openBalance('acct_b', 'USDC', sealed)).toThrow(/does not open/);
    expect(() => sealer.openBalance('acct_a', 'SOL', sealed)).toThrow(/does not open/);
  });
});
