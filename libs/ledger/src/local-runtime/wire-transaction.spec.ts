import { randomBytes } from 'node:crypto';
import {
  AccountRole,
  type AccountSignerMeta,
  type Instruction,
  type KeyPairSigner,
  type TransactionVersion,
  appendTransactionMessageInstructions,
  blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressDecoder,
  getBase58Decoder,
  getTransactionDecoder,
  getTransactionEncoder,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { parseWireTransaction } from './wire-transaction';

const randomAddress = () => getAddressDecoder().decode(randomBytes(32));

async function wireOf(
  version: TransactionVersion,
  feePayer: KeyPairSigner,
  cosigner: KeyPairSigner,
  sign: KeyPairSigner[],
) {
  const signerMeta: AccountSignerMeta = {
    address: cosigner.address,
    role: AccountRole.READONLY_SIGNER,
    signer: cosigner,
  };
  const instruction: Instruction = {
    programAddress: randomAddress(),
    accounts: [
      { address: randomAddress(), role: AccountRole.WRITABLE },
      { address: randomAddress(), role: AccountRole.READONLY },
      signerMeta,
    ],
    data: new Uint8Array(300),
  };
  const message = pipe(
    createTransactionMessage({ version }),
    (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash(randomAddress()), lastValidBlockHeight: 1n },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions([instruction], draft),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  // Signatures of signers not in `sign` are left empty, as a partially signed transaction has them.
  const signatures = Object.fromEntries(
    Object.entries(signed.signatures).map(([address, bytes]) => [
      address,
      sign.some((signer) => signer.address === address) ? bytes : null,
    ]),
  );
  return new Uint8Array(getTransactionEncoder().encode({ ...signed, signatures } as typeof signed));
}

describe('parseWireTransaction', () => {
  it('reads legacy and v0 transactions exactly as kit decoder does', async () => {
    const [feePayer, cosigner] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    for (const version of ['legacy', 0] as const) {
      const wire = await wireOf(version, feePayer, cosigner, [feePayer, cosigner]);
      const parsed = parseWireTransaction(wire);
      if ('message' in parsed) {
        throw new Error(parsed.message);
      }
      const reference = getTransactionDecoder().decode(wire);
      expect(parsed.transaction.messageBytes).toEqual(reference.messageBytes);
      expect(Object.entries(parsed.transaction.signatures)).toEqual(Object.entries(reference.signatures));
      expect(parsed.feePayer).toBe(feePayer.address);
      expect(parsed.signature).toBe(
        getBase58Decoder().decode(reference.signatures[feePayer.address] ?? new Uint8Array(64)),
      );
      expect(parsed.writable).toHaveLength(2);
      expect(parsed.writable[0]).toBe(feePayer.address);
    }
  });

  it('names an unsigned fee payer only where asked to, and keeps empty signatures empty', async () => {
    const [feePayer, cosigner] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    const wire = await wireOf(0, feePayer, cosigner, [cosigner]);
    expect(parseWireTransaction(wire)).toEqual({ message: 'transaction is not signed by its fee payer' });
    const parsed = parseWireTransaction(wire, { unsignedFeePayer: true });
    if ('message' in parsed) {
      throw new Error(parsed.message);
    }
    expect(parsed.transaction.signatures[feePayer.address]).toBeNull();
    expect(parsed.transaction.signatures[cosigner.address]).not.toBeNull();
    expect(parsed.signature).toBe('1'.repeat(64));
  });

  it('refuses what kit cannot decode, with its reason', async () => {
    const [feePayer, cosigner] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    const wire = await wireOf(0, feePayer, cosigner, [feePayer, cosigner]);
    const oneSignatureLess = new Uint8Array([1, ...wire.subarray(1 + 64)]);
    for (const bad of [new Uint8Array(0), wire.subarray(0, 100), oneSignatureLess]) {
      expect(parseWireTransaction(bad)).toEqual({
        message: expect.stringMatching(/^failed to deserialize transaction: /) as string,
      });
    }
  });
});
