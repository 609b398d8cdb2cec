import { verifyDecryptionProof } from './decryption-proof';
import { subtractAmount } from './elgamal';
import { U64_MAX } from './u64';
import { zk } from './zk-sdk';

// The client side (libs/sdk) builds these for real; here the proof is made directly with zk-sdk.
function createDecryptionProofForTest(
  keypair: InstanceType<typeof zk.ElGamalKeypair>,
  ciphertext: Uint8Array,
  amount: bigint,
) {
  const shifted = zk.ElGamalCiphertext.fromBytes(subtractAmount(ciphertext, amount) ?? new Uint8Array());
  if (!shifted) {
    throw new Error('bad ciphertext');
  }
  return new zk.ZeroCiphertextProofData(keypair, shifted).toBytes();
}

// zk-sdk may refuse outright ("cryptographic component mismatch") to prove a false statement.
function tryProof(keypair: InstanceType<typeof zk.ElGamalKeypair>, ciphertext: Uint8Array, amount: bigint) {
  try {
    return createDecryptionProofForTest(keypair, ciphertext, amount);
  } catch {
    return undefined;
  }
}

function account(amount: bigint) {
  const keypair = new zk.ElGamalKeypair();
  const ciphertext = keypair.pubkey().encryptU64(amount).toBytes();
  return { keypair, elgamalPubkey: keypair.pubkey().toBytes(), ciphertext };
}

describe('verifyDecryptionProof', () => {
  const amount = 25_500_000n;
  const alice = account(amount);
  const proof = createDecryptionProofForTest(alice.keypair, alice.ciphertext, amount);
  const claim = {
    elgamalPubkey: alice.elgamalPubkey,
    availableBalanceCiphertext: alice.ciphertext,
    amount,
    proof,
  };

  it('accepts a proof of the true amount', () => {
    expect(verifyDecryptionProof(claim)).toBe(true);
  });

  it('accepts a proof of a zero balance', () => {
    const empty = account(0n);
    const zeroProof = createDecryptionProofForTest(empty.keypair, empty.ciphertext, 0n);
    expect(
      verifyDecryptionProof({
        elgamalPubkey: empty.elgamalPubkey,
        availableBalanceCiphertext: empty.ciphertext,
        amount: 0n,
        proof: zeroProof,
      }),
    ).toBe(true);
  });

  it('rejects the same proof for any other claimed amount', () => {
    for (const other of [amount + 1n, amount - 1n, 0n, amount * 2n]) {
      expect(verifyDecryptionProof({ ...claim, amount: other })).toBe(false);
    }
  });

  it('rejects a proof for a false amount, whether or not zk-sdk agrees to produce one', () => {
    const lie = tryProof(alice.keypair, alice.ciphertext, amount + 1n);
    expect(lie === undefined || !verifyDecryptionProof({ ...claim, amount: amount + 1n, proof: lie })).toBe(
      true,
    );
  });

  it('rejects a proof made with another key', () => {
    const mallory = new zk.ElGamalKeypair();
    const ownZero = createDecryptionProofForTest(mallory, mallory.pubkey().encryptU64(0n).toBytes(), 0n);
    expect(verifyDecryptionProof({ ...claim, proof: ownZero })).toBe(false);
    const onAlicesCiphertext = tryProof(mallory, alice.ciphertext, amount);
    expect(
      onAlicesCiphertext === undefined || !verifyDecryptionProof({ ...claim, proof: onAlicesCiphertext }),
    ).toBe(true);
  });

  it('rejects a replay against another ciphertext of the same amount (balance changed)', () => {
    const newer = alice.keypair.pubkey().encryptU64(amount).toBytes();
    expect(verifyDecryptionProof({ ...claim, availableBalanceCiphertext: newer })).toBe(false);
  });

  it('rejects a proof whose context was rewritten to match the claim', () => {
    const forged = Uint8Array.from(proof);
    forged.set(subtractAmount(alice.ciphertext, amount + 1n) ?? new Uint8Array(64), 32);
    expect(verifyDecryptionProof({ ...claim, amount: amount + 1n, proof: forged })).toBe(false);
  });

  it('rejects a valid proof about another account presented with its own context', () => {
    const bob = account(amount);
    const bobProof = createDecryptionProofForTest(bob.keypair, bob.ciphertext, amount);
    expect(verifyDecryptionProof({ ...claim, proof: bobProof })).toBe(false);
  });

  it('returns false, never throws, on garbage and wrong sizes', () => {
    expect(verifyDecryptionProof({ ...claim, proof: new Uint8Array(192).fill(7) })).toBe(false);
    expect(verifyDecryptionProof({ ...claim, proof: proof.subarray(0, 191) })).toBe(false);
    expect(
      verifyDecryptionProof({ ...claim, availableBalanceCiphertext: new Uint8Array(64).fill(0xff) }),
    ).toBe(false);
    expect(verifyDecryptionProof({ ...claim, elgamalPubkey: new Uint8Array(31) })).toBe(false);
    expect(verifyDecryptionProof({ ...claim, amount: -1n })).toBe(false);
    expect(verifyDecryptionProof({ ...claim, amount: U64_MAX + 1n })).toBe(false);
  });

  it('can verify the same proof bytes repeatedly (no wasm object is consumed)', () => {
    expect(verifyDecryptionProof(claim)).toBe(true);
    expect(verifyDecryptionProof(claim)).toBe(true);
  });
});
