// eslint-disable-next-line @nx/enforce-module-boundaries -- the documented example imports the package the way its users do
import { createDecryptionProof, CtsClient, decryptAmount, type Transfer } from '@cts/sdk';

export interface QuickstartOptions {
  baseUrl: string;
  /** A `svc_test_` key: the sandbox faucet refuses live keys. */
  apiKey: string;
  /** The account's `decryption_key`, shown once when the account was created. */
  decryptionKey: string;
  /** Who receives the 12.5 USDC, e.g. `@bob`. */
  recipient: string;
}

export interface QuickstartResult {
  handle: string;
  transferId: string;
  transferStatus: Transfer['status'];
  /** The transfer's amount, decrypted on this side: `'12.5'`. */
  sentAmount: string;
  /** Asset → amount, as the service shows them once given the decryption proof. */
  balances: Record<string, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function quickstart(options: QuickstartOptions): Promise<QuickstartResult> {
  const client = new CtsClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  const me = await client.me();
  await client.fund({ asset: 'USDC', amount: '25' });

  const created = await client.createTransfer({
    to: options.recipient,
    amount: '12.5',
    asset: 'USDC',
    confidential: true,
  });
  if (created.kind === 'pending_approval') {
    throw new Error(`held for approval as ${created.transaction.transaction_id}`);
  }

  // Settlement can finish after the response; the balance proof must see the settled balance.
  let transfer = await client.transfer(created.transfer.transfer_id);
  for (let tries = 0; transfer.status === 'pending' && tries < 100; tries += 1) {
    await sleep(200);
    transfer = await client.transfer(transfer.transfer_id);
  }
  if (transfer.encrypted_amount === undefined) {
    throw new Error('the transfer carries no encrypted_amount');
  }
  // The service never sends the amount in clear: only this key can open it.
  const sentAmount = decryptAmount(options.decryptionKey, transfer.encrypted_amount, 'USDC');

  // Without a proof the service says only whether each balance is non-zero.
  const encrypted = await client.balances({ include: 'ciphertext' });
  const entries = encrypted.balances.flatMap(({ asset, ciphertext, decryptable_balance }) =>
    ciphertext === undefined ? [] : [{ asset, ciphertext, decryptableBalance: decryptable_balance }],
  );
  const decryptionProof = createDecryptionProof(options.decryptionKey, entries);
  const proven = await client.balances({ decryptionProof });

  const balances: Record<string, string> = {};
  for (const { asset, amount } of proven.balances) {
    if (amount !== undefined) {
      balances[asset] = amount;
    }
  }
  return {
    handle: me.handle,
    transferId: transfer.transfer_id,
    transferStatus: transfer.status,
    sentAmount,
    balances,
  };
}
