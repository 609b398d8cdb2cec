import { type BalanceEntry, CtsApiError } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { type BalanceInput } from '../crypto/amounts';
import { amountElement } from '../ui/amount';
import { button, cell, h, replaceChildren, table } from '../ui/dom';

type Check =
  | { state: 'pending' }
  | { state: 'verified' }
  | { state: 'mismatch'; service?: string }
  | { state: 'rejected'; message: string }
  | { state: 'none' };

function checkElement(check: Check): HTMLElement | string {
  switch (check.state) {
    case 'pending':
      return 'Checking with the service…';
    case 'verified':
      return h('span', { class: 'verified' }, '✓ Proof accepted by the service');
    case 'mismatch':
      return h('span', { class: 'rejected' }, `✗ The service read ${check.service ?? 'nothing'}`);
    case 'rejected':
      return h('span', { class: 'rejected' }, `✗ Proof rejected: ${check.message}`);
    case 'none':
      return '—';
  }
}

function inputsOf(balances: readonly BalanceEntry[]): BalanceInput[] {
  return balances.flatMap(({ asset, ciphertext, decryptable_balance }) =>
    ciphertext === undefined ? [] : [{ asset, ciphertext, decryptableBalance: decryptable_balance }],
  );
}

/**
 * Balances, read the way the architecture prescribes: ciphertexts from the API
 * (`?include=ciphertext`), decrypted here, then a zero-knowledge `decryption_proof` sent back so the
 * service confirms each amount against the ledger without ever holding the key.
 */
async function render(context: ViewContext): Promise<void> {
  const results = h('div', { attrs: { 'aria-live': 'polite' } }, h('p', {}, 'Loading balances…'));
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'Balances'),
    h(
      'p',
      { class: 'intro' },
      context.amounts.unlocked
        ? 'Each balance is decrypted in this browser, then proven to the service with a zero-knowledge proof: the service checks it against the ledger and never sees your key.'
        : 'Without your decryption key the service only says whether each balance is empty. Use “Unlock amounts” to read them.',
    ),
    h(
      'div',
      { class: 'actions' },
      button('Refresh', () => void render(context)),
    ),
    results,
  );
  try {
    const [{ balances }, ready] = await Promise.all([
      context.client.balances({ include: 'ciphertext' }),
      context.amounts.prepare(),
    ]);
    const inputs = inputsOf(balances);
    const checks = new Map<string, Check>(
      balances.map((b) => [b.asset, { state: ready && b.ciphertext ? 'pending' : 'none' }]),
    );
    const opened = new Map(inputs.map((input) => [input.asset, context.amounts.balance(input)]));
    const draw = () => {
      const { table: element, body } = table('Balances by asset', [
        'Asset',
        'Holds funds',
        'Amount',
        'Checked by the service',
      ]);
      for (const entry of balances) {
        const amount = opened.get(entry.asset);
        body.append(
          h(
            'tr',
            { attrs: { 'data-asset': entry.asset } },
            cell('Asset', h('strong', {}, entry.asset)),
            cell('Holds funds', entry.has_balance ? 'Yes' : 'No'),
            cell('Amount', amount ? amountElement(amount, entry.asset) : '—'),
            cell('Checked by the service', checkElement(checks.get(entry.asset) ?? { state: 'none' })),
          ),
        );
      }
      replaceChildren(results, balances.length === 0 ? h('p', {}, 'No balances yet.') : element);
    };
    draw();
    if (!ready || inputs.length === 0 || context.amounts.problem) {
      if (context.amounts.problem) {
        results.append(h('p', { class: 'form-error' }, context.amounts.problem));
      }
      return;
    }
    await proveBalances(context, inputs, opened, checks);
    draw();
  } catch (error) {
    replaceChildren(results, h('p', {}, 'The balances could not be loaded.'));
    context.fail(error);
  }
}

async function proveBalances(
  context: ViewContext,
  inputs: BalanceInput[],
  opened: Map<string, ReturnType<ViewContext['amounts']['balance']>>,
  checks: Map<string, Check>,
): Promise<void> {
  const provable = inputs.filter((input) => opened.get(input.asset)?.state === 'open');
  if (provable.length === 0) {
    return;
  }
  try {
    const proof = context.amounts.proof(provable);
    const { balances } = await context.client.balances({ decryptionProof: proof });
    for (const input of provable) {
      const local = opened.get(input.asset);
      const service = balances.find((b) => b.asset === input.asset)?.amount;
      const matches = local?.state === 'open' && service === local.text;
      checks.set(input.asset, matches ? { state: 'verified' } : { state: 'mismatch', service });
    }
  } catch (error) {
    // A transfer that settles between the two requests changes the ciphertext: the proof no longer fits.
    const message =
      error instanceof CtsApiError && error.code === 'decryption_proof_invalid'
        ? `${error.message} (if a transfer just settled, refresh)`
        : error instanceof Error
          ? error.message
          : String(error);
    for (const input of provable) {
      checks.set(input.asset, { state: 'rejected', message });
    }
    if (!(error instanceof CtsApiError && error.status === 422)) {
      context.fail(error);
    }
  }
}

export const balancesView: ViewDefinition = {
  title: 'Balances',
  render(context) {
    void render(context);
  },
};
