import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type KeyPairSigner,
  appendTransactionMessageInstructions,
  blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  lamports,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { createLocalLedgerRuntime } from './create-local-runtime';
import { handleJsonRpc } from './json-rpc.handler';
import { type LocalLedgerRuntime } from './local-runtime';

describe('handleJsonRpc', () => {
  let stateDir: string;
  let runtime: LocalLedgerRuntime;
  let payer: KeyPairSigner;
  let id = 0;

  const call = (method: string, params: unknown[] = []) =>
    handleJsonRpc(runtime, { jsonrpc: '2.0', id: ++id, method, params }) as {
      result?: unknown;
      error?: { code: number; message: string; data?: { err: unknown; logs: string[] } };
    };
  const result = <T>(method: string, params: unknown[] = []) => call(method, params).result as T;
  const balance = (address: string) => result<{ value: bigint }>('getBalance', [address]).value;
  const signatureOf = (wire: string) => {
    const { signatures } = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    return getBase58Decoder().decode(signatures[payer.address] ?? new Uint8Array(64));
  };

  const transfer = async (amount: bigint, hash = runtime.block().blockhash) =>
    transfers([amount], hash, await generateKeyPairSigner());
  const transfers = async (amounts: bigint[], hash: string, recipient: KeyPairSigner) => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(payer, draft),
      (draft) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash(hash), lastValidBlockHeight: 1_000n },
          draft,
        ),
      (draft) =>
        appendTransactionMessageInstructions(
          amounts.map((amount) =>
            getTransferSolInstruction({
              source: payer,
              destination: recipient.address,
              amount: lamports(amount),
            }),
          ),
          draft,
        ),
    );
    return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
  };

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-ledger-rpc-'));
    runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
    payer = await generateKeyPairSigner();
    expect(typeof result('requestAirdrop', [payer.address, 1_000_000_000])).toBe('string');
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('lands a transaction and reports it finalized', async () => {
    const signature = result<string>('sendTransaction', [await transfer(1_000_000n), { encoding: 'base64' }]);
    const statuses = result<{ value: unknown[] }>('getSignatureStatuses', [[signature, '1'.repeat(64)]]);
    expect(statuses.value).toEqual([
      expect.objectContaining({ err: null, confirmationStatus: 'finalized', status: { Ok: null } }),
      null,
    ]);
  });

  it('refuses a duplicate, as a cluster does within the blockhash lifetime', async () => {
    const wire = await transfer(2_000_000n);
    call('sendTransaction', [wire, { encoding: 'base64' }]);
    expect(call('sendTransaction', [wire, { encoding: 'base64' }]).error).toMatchObject({
      code: -32002,
      data: { err: 'AlreadyProcessed' },
    });
  });

  it('refuses an unknown blockhash', async () => {
    const wire = await transfer(1_000_000n, '11111111111111111111111111111111');
    expect(call('sendTransaction', [wire, { encoding: 'base64' }]).error).toMatchObject({
      data: { err: 'BlockhashNotFound' },
    });
  });

  it('fails preflight with the program logs, charging nothing', async () => {
    const before = balance(payer.address);
    const response = call('sendTransaction', [await transfer(10n ** 12n), { encoding: 'base64' }]);
    expect(response.error?.code).toBe(-32002);
    expect(response.error?.message).toContain('custom program error: 0x1');
    expect(response.error?.data?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(response.error?.data?.logs.join('\n')).toContain('insufficient lamports');
    expect(balance(payer.address)).toBe(before);
  });

  it('leaves no trace of a failed preflight: the simulation report, no status, the same bytes sendable again', async () => {
    // The first instruction succeeds and the second fails: neither account may keep the first's effect.
    const recipient = await generateKeyPairSigner();
    const wire = await transfers([1_000_000n, 10n ** 12n], runtime.block().blockhash, recipient);
    const signature = signatureOf(wire);
    const before = balance(payer.address);
    const simulated = result<{ value: unknown }>('simulateTransaction', [
      wire,
      { encoding: 'base64', sigVerify: true },
    ]);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = call('sendTransaction', [wire, { encoding: 'base64' }]);
      expect(response.error?.code).toBe(-32002);
      expect(response.error?.data).toEqual(simulated.value);
      expect(balance(payer.address)).toBe(before);
      expect(balance(recipient.address)).toBe(0n);
      expect(result<{ value: unknown[] }>('getSignatureStatuses', [[signature]]).value).toEqual([null]);
      expect(runtime.snapshot().signatures.map((entry) => entry.signature)).not.toContain(signature);
    }
    expect(result<string>('sendTransaction', [wire, { encoding: 'base64', skipPreflight: true }])).toBe(
      signature,
    );
    expect(balance(payer.address)).toBe(before - 5_000n);
  });

  it('lands a failing transaction when preflight is skipped: fee paid, error in its status', async () => {
    const before = balance(payer.address);
    const signature = result<string>('sendTransaction', [
      await transfer(10n ** 12n),
      { encoding: 'base64', skipPreflight: true },
    ]);
    const [status] = result<{ value: { err: unknown }[] }>('getSignatureStatuses', [[signature]]).value;
    expect(status?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(balance(payer.address)).toBe(before - 5_000n);
  });

  it('simulates a transaction its fee payer has not signed yet unless signatures are verified (x402 facilitators do)', async () => {
    const sponsor = await generateKeyPairSigner();
    const recipient = await generateKeyPairSigner();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayer(sponsor.address, draft),
      (draft) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash(runtime.block().blockhash), lastValidBlockHeight: 1_000n },
          draft,
        ),
      (draft) =>
        appendTransactionMessageInstructions(
          [
            getTransferSolInstruction({
              source: payer,
              destination: recipient.address,
              amount: lamports(1_000_000n),
            }),
          ],
          draft,
        ),
    );
    const partial = getBase64EncodedWireTransaction(
      await partiallySignTransactionMessageWithSigners(message),
    );
    result('requestAirdrop', [sponsor.address, 1_000_000_000]);

    const simulated = result<{ value: { err: unknown; logs: string[] } }>('simulateTransaction', [
      partial,
      { encoding: 'base64', sigVerify: false, commitment: 'confirmed' },
    ]);
    expect(simulated.value.err).toBeNull();
    expect(simulated.value.logs.join('\n')).toContain('success');
    expect(call('simulateTransaction', [partial, { encoding: 'base64', sigVerify: true }]).error?.code).toBe(
      -32602,
    );
    expect(call('sendTransaction', [partial, { encoding: 'base64' }]).error?.code).toBe(-32602);
    expect(balance(recipient.address)).toBe(0n);
  });

  it('serves accounts in base64, rent and block data like a cluster', async () => {
    const [usdc] = runtime.assets();
    const accounts = result<{ value: ({ owner: string; data: [string, string] } | null)[] }>(
      'getMultipleAccounts',
      [[usdc?.mint, (await generateKeyPairSigner()).address], { encoding: 'base64' }],
    );
    expect(accounts.value[0]?.owner).toBe('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
    expect(accounts.value[0]?.data[1]).toBe('base64');
    expect(accounts.value[1]).toBeNull();
    expect(result('getMinimumBalanceForRentExemption', [0])).toBe(890_880n);
    const { value } = result<{ value: { blockhash: string; lastValidBlockHeight: bigint } }>(
      'getLatestBlockhash',
    );
    expect(value.lastValidBlockHeight - result<bigint>('getBlockHeight')).toBe(150n);
    expect(result<{ value: boolean }>('isBlockhashValid', [value.blockhash]).value).toBe(true);
  });

  it('encodes small accounts in base58 on request and refuses it for large ones', () => {
    const feePayer = result<{ value: { data: [string, string] } }>('getAccountInfo', [
      runtime.genesis.feePayer,
      { encoding: 'base58' },
    ]);
    expect(feePayer.value.data).toEqual(['', 'base58']);
    const [usdc] = runtime.assets();
    expect(call('getAccountInfo', [usdc?.mint, { encoding: 'base58' }]).error?.code).toBe(-32602);
  });

  it('rejects invalid params and unknown methods with JSON-RPC codes', () => {
    expect(call('getBalance', ['not-an-address']).error?.code).toBe(-32602);
    expect(call('sendTransaction', ['!!!', { encoding: 'base64' }]).error?.code).toBe(-32602);
    expect(call('getProgramAccounts').error?.code).toBe(-32601);
    expect(handleJsonRpc(runtime, { id: 1, method: 'getHealth' })).toMatchObject({ error: { code: -32600 } });
  });
});
