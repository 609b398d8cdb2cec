import {
  TOKEN_2022_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  parseTransferCheckedInstruction,
} from '@solana-program/token-2022';
import {
  type Address,
  type Instruction,
  createKeyPairSignerFromPrivateKeyBytes,
  decompileTransactionMessage,
  generateKeyPairSigner,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  verifySignature,
} from '@solana/kit';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { buildExactPayment } from './exact-payment.builder';

const BLOCKHASH = '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zxTWmvS2Wcf2J';

describe('buildExactPayment (x402 exact scheme on Solana)', () => {
  async function build(memo: string | null = null) {
    const from = generateAccountKeyMaterial();
    const [mint, payTo, feePayer] = (
      await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()])
    ).map((signer) => signer.address);
    const signed = await buildExactPayment({
      from,
      mint,
      decimals: 6,
      payTo,
      amount: 10_000n,
      feePayer,
      memo,
      blockhash: BLOCKHASH,
      lastValidBlockHeight: 150n,
    });
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(signed.transaction));
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    const instructions: readonly Instruction[] = decompileTransactionMessage(compiled).instructions;
    // Kit's own signer from the same seed: an independent check of the builder's address and signature.
    const owner = await createKeyPairSignerFromPrivateKeyBytes(from.signingSeed);
    return {
      signed,
      transaction,
      compiled,
      instructions,
      owner,
      mint,
      payTo,
      feePayer,
    };
  }

  it('is compute limit, compute price, one TransferChecked of exactly the amount to payTo’s account, then a memo', async () => {
    const { instructions, owner, mint, payTo } = await build();
    expect(instructions.map((ix) => ix.programAddress)).toEqual([
      'ComputeBudget111111111111111111111111111111',
      'ComputeBudget111111111111111111111111111111',
      TOKEN_2022_PROGRAM_ADDRESS,
      'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
    ]);
    expect(Array.from(instructions[0]?.data ?? [])).toEqual([2, 0x20, 0x4e, 0, 0]); // 20,000 units
    expect(Array.from(instructions[1]?.data ?? [])).toEqual([3, 1, 0, 0, 0, 0, 0, 0, 0]); // 1 µlamport
    const transfer = parseTransferCheckedInstruction(
      instructions[2] as Parameters<typeof parseTransferCheckedInstruction>[0],
    );
    const ata = async (who: Address) =>
      (await findAssociatedTokenPda({ mint, owner: who, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS }))[0];
    expect(transfer.data.amount).toBe(10_000n);
    expect(transfer.data.decimals).toBe(6);
    expect(transfer.accounts.destination.address).toBe(await ata(payTo));
    expect(transfer.accounts.source.address).toBe(await ata(owner.address));
    expect(transfer.accounts.authority.address).toBe(owner.address);
  });

  it('names the facilitator as fee payer, in no instruction, its signature left for it; the payer’s signature is valid', async () => {
    const { transaction, compiled, instructions, owner, feePayer, signed } = await build();
    expect(compiled.staticAccounts[0]).toBe(feePayer);
    expect(
      instructions.every((ix) => (ix.accounts ?? []).every((account) => account.address !== feePayer)),
    ).toBe(true);
    expect(transaction.signatures[feePayer]).toBeNull();
    const signature = transaction.signatures[owner.address];
    if (!signature) {
      throw new Error('the payer did not sign');
    }
    expect(await verifySignature(owner.keyPair.publicKey, signature, transaction.messageBytes)).toBe(true);
    expect(Buffer.from(transaction.messageBytes).toString('base64')).toBe(signed.message);
  });

  const text = (data: ArrayLike<number> | undefined) => Buffer.from(Array.from(data ?? [])).toString('utf8');

  it('carries the seller’s memo exactly, or a fresh nonce so two equal payments differ', async () => {
    const withMemo = await build('order-42');
    expect(text(withMemo.instructions[3]?.data)).toBe('order-42');
    const [a, b] = [await build(), await build()];
    expect(text(a.instructions[3]?.data)).toMatch(/^[0-9a-f]{32}$/);
    expect(a.instructions[3]?.data).not.toEqual(b.instructions[3]?.data);
    await expect(build('x'.repeat(257))).rejects.toThrow(RangeError);
  });
});
