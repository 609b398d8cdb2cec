import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quickstart } from '../../libs/sdk/examples/quickstart';
import { type StackUnderTest } from './foundation.behaviour';
import { account } from './transfers.behaviour';

/** docs/sdk.md's example is libs/sdk/examples/quickstart.ts verbatim, and it works against the service. */
export function sdkQuickstartBehaviour(stack: () => StackUnderTest): void {
  it('runs the docs/sdk.md quickstart against the live service', async () => {
    const source = readFileSync(join(__dirname, '../../libs/sdk/examples/quickstart.ts'), 'utf8').trim();
    expect(readFileSync(join(__dirname, '../../docs/sdk.md'), 'utf8')).toContain(source);
    const [alice, bob] = [await account(stack()), await account(stack())];
    const result = await quickstart({
      baseUrl: stack().baseUrl,
      apiKey: alice.token,
      decryptionKey: alice.decryption_key,
      recipient: bob.account.handle,
    });
    expect(result).toMatchObject({
      handle: alice.account.handle,
      transferStatus: 'confirmed',
      sentAmount: '12.5',
      balances: { USDC: '12.5' },
    });
    expect(result.transferId).toMatch(/^tr_/);
  }, 60_000);
}
