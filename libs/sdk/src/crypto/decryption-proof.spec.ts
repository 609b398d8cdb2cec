import {
  decodeBase64,
  encodeBase64,
  encodeDecryptionKey,
  parseDecryptionProofParam,
  verifyDecryptionProof,
  zk,
} from '@cts/crypto';
import { ASSET_DECIMALS } from './assets';
import { createDecryptionProof } from './create-decryption-proof';

// An account as the service sees it (public key, ledger ciphertexts) and as its holder sees it (decryption_key).
function account() {
  const keypair = new zk.ElGamalKeypair();
  const aeKey = new zk.AeKey();
  return {
    decryptionKey: encodeDecryptionKey({ elgamalSecret: keypair.secret().toBytes(), aeKey: aeKey.toBytes() }),
    elgamalPubkey: keypair.pubkey().toBytes(),
    encrypt: (amount: bigint) => keypair.pubkey().encryptU64(amount).toBytes(),
    decryptable: (amount: bigint) => encodeBase64(aeKey.encrypt(amount).toBytes()),
  };
}

const decimalsOf = (asset: string) =>
  asset === 'USDC' || asset === 'SOL' ? ASSET_DECIMALS[asset] : undefined;

// The server side of GET /v1/accounts/me/balances: parse, then verify each entry against the ledger.
function serverVerifies(param: string, elgamalPubkey: Uint8Array, ledger: Record<string, Uint8Array>) {
  const parsed = parseDecryptionProofParam(param, decimalsOf);
  if (!parsed.ok) {
    throw new Error(parsed.error.reason);
  }
  return parsed.entries.map((entry) => ({
    asset: entry.asset,
    amount: entry.amount,
    valid: verifyDecryptionProof({
      elgamalPubkey,
      availableBalanceCiphertext: ledger[entry.asset] ?? new Uint8Array(),
      amount: entry.amount,
      proof: entry.proof,
    }),
  }));
}

function withAmount(param: string, index: number, amount: string): string {
  const body = JSON.parse(new TextDecoder().decode(decodeBase64(param))) as {
    v: number;
    proofs: { asset: string; amount: string; proof: string }[];
  };
  body.proofs[index].amount = amount;
  return encodeBase64(new TextEncoder().encode(JSON.stringify(body)));
}

describe('createDecryptionProof → verifyDecryptionProof', () => {
  const alice = account();
  const ledger = { USDC: alice.encrypt(12_500_000n), SOL: alice.encrypt(3_000_000_001n) };
  const param = createDecryptionProof(alice.decryptionKey, [
    { asset: 'USDC', ciphertext: encodeBase64(ledger.USDC) },
    { asset: 'SOL', ciphertext: encodeBase64(ledger.SOL) },
  ]);

  it('proves every balance so the server accepts the true amounts', () => {
    expect(serverVerifies(param, alice.elgamalPubkey, ledger)).toEqual([
      { asset: 'USDC', amount: 12_500_000n, valid: true },
      { asset: 'SOL', amount: 3_000_000_001n, valid: true },
    ]);
  });

  it('writes amounts as decimal strings in asset units', () => {
    const body = JSON.parse(new TextDecoder().decode(decodeBase64(param))) as {
      proofs: { amount: string }[];
    };
    expect(body.proofs.map((p) => p.amount)).toEqual(['12.5', '3.000000001']);
  });

  it('is rejected when the claimed amount is changed by one base unit', () => {
    const inflated = withAmount(param, 0, '12.500001');
    expect(serverVerifies(inflated, alice.elgamalPubkey, ledger)[0]).toMatchObject({
      amount: 12_500_001n,
      valid: false,
    });
    const deflated = withAmount(param, 1, '3');
    expect(serverVerifies(deflated, alice.elgamalPubkey, ledger)[1]).toMatchObject({ valid: false });
  });

  it("is rejected for another account's key", () => {
    const bob = account();
    const bobLedger = { USDC: bob.encrypt(12_500_000n) };
    const bobParam = createDecryptionProof(bob.decryptionKey, [
      { asset: 'USDC', ciphertext: encodeBase64(bobLedger.USDC) },
    ]);
    expect(serverVerifies(bobParam, alice.elgamalPubkey, ledger)[0].valid).toBe(false);
    expect(serverVerifies(bobParam, bob.elgamalPubkey, bobLedger)[0].valid).toBe(true);
  });

  it('is rejected when replayed after the balance ciphertext changed, even to the same amount', () => {
    const after = { ...ledger, USDC: alice.encrypt(12_500_000n) };
    expect(serverVerifies(param, alice.elgamalPubkey, after)[0].valid).toBe(false);
  });

  it('proves a zero balance', () => {
    const empty = { USDC: alice.encrypt(0n) };
    const zeroParam = createDecryptionProof(alice.decryptionKey, [
      { asset: 'USDC', ciphertext: encodeBase64(empty.USDC) },
    ]);
    expect(serverVerifies(zeroParam, alice.elgamalPubkey, empty)).toEqual([
      { asset: 'USDC', amount: 0n, valid: true },
    ]);
  });

  it('proves a 1e9 USDC balance with the decryptable balance beside the ciphertext', () => {
    const amount = 10n ** 15n;
    const big = { USDC: alice.encrypt(amount) };
    const bigParam = createDecryptionProof(alice.decryptionKey, [
      { asset: 'USDC', ciphertext: encodeBase64(big.USDC), decryptableBalance: alice.decryptable(amount) },
    ]);
    expect(serverVerifies(bigParam, alice.elgamalPubkey, big)).toEqual([
      { asset: 'USDC', amount, valid: true },
    ]);
  });

  it('takes the balance entries as the API returns them, large balances included', () => {
    const amount = 10n ** 15n;
    const big = { USDC: alice.encrypt(amount) };
    const entries = [
      {
        asset: 'USDC',
        has_balance: true,
        ciphertext: encodeBase64(big.USDC),
        decryptable_balance: alice.decryptable(amount),
      },
    ];
    expect(
      serverVerifies(createDecryptionProof(alice.decryptionKey, entries), alice.elgamalPubkey, big),
    ).toEqual([{ asset: 'USDC', amount, valid: true }]);
    expect(() => createDecryptionProof(alice.decryptionKey, [{ asset: 'SOL', has_balance: false }])).toThrow(
      'no ciphertext',
    );
  });

  it('refuses to build a proof from a decryptable balance that does not match the ciphertext', () => {
    expect(() =>
      createDecryptionProof(alice.decryptionKey, [
        {
          asset: 'USDC',
          ciphertext: encodeBase64(ledger.USDC),
          decryptableBalance: alice.decryptable(12_500_001n),
        },
      ]),
    ).toThrow('does not match');
  });

  it('refuses unknown assets, an empty list and malformed ciphertexts', () => {
    const ciphertext = encodeBase64(ledger.USDC);
    expect(() => createDecryptionProof(alice.decryptionKey, [{ asset: 'EUR', ciphertext }])).toThrow(
      'unknown asset',
    );
    expect(() => createDecryptionProof(alice.decryptionKey, [])).toThrow('at least one');
    expect(() => createDecryptionProof(alice.decryptionKey, [{ asset: 'USDC', ciphertext: 'AAAA' }])).toThrow(
      '64 bytes',
    );
  });
});
