import { Inject, Injectable } from '@nestjs/common';
import {
  ASSET_DECIMALS,
  type AssetCode,
  balanceSealingContext,
  contextFrom,
  decryptionProofSealingContext,
  type Environment,
  type Envelope,
  fail,
  GetAccount,
  GetBalances,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
  type SealedBalanceEntry,
} from '@cts/contracts';
import {
  decodeBase64,
  encodeBase64,
  formatAmount,
  parseDecryptionProofParam,
  sealAmount,
  type SealingKey,
  unseal,
  utf8Decode,
  verifyDecryptionProof,
} from '@cts/crypto';
import { Custody } from '@cts/custody';
import { type ConfidentialAccountView, type LedgerPort } from '@cts/ledger';
import { CommandBus, OnCommand } from '@cts/messaging';
import { address } from '@solana/kit';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks, accountLockKey } from '../locks/account-locks';
import { DATA_KEY } from '../sealing/data-key';
import { decimalsOfCode } from '../transfers/assets';
import { kycAllowsMoney } from '../transfers/transfer.domain';
import { spendablePublic } from '../x402/x402-payment.domain';
import { X402PaymentRepository } from '../x402/x402-payment.repository';

type Balances = ResponseOf<typeof GetBalances>;

const isNeverFunded = (ciphertext: Uint8Array): boolean => ciphertext.every((byte) => byte === 0);

/**
 * `GET /v1/accounts/me/balances` (spec §4.2, ARCHITECTURE §6): yes/no per asset from custody; an
 * amount only where the caller proved it knows it, checked against the ledger's ciphertext with the
 * account's public key alone.
 */
@Injectable()
export class BalancesHandlers {
  constructor(
    private readonly commands: CommandBus,
    private readonly custody: Custody,
    private readonly ledgers: Ledgers,
    private readonly locks: AccountLocks,
    private readonly x402Payments: X402PaymentRepository,
    @Inject(DATA_KEY) private readonly dataKey: SealingKey,
  ) {}

  @OnCommand(GetBalances)
  async balances(message: Envelope<RequestOf<typeof GetBalances>>): Promise<Result<Balances>> {
    const { account_id, environment, include_ciphertext, sealed_decryption_proof } = message.payload;
    const account = await this.commands.send(GetAccount, { account_id, environment }, contextFrom(message));
    if (!account.ok) {
      return account;
    }
    if (!kycAllowsMoney(account.value.kyc_status)) {
      return fail('kyc_required', 'Balances need a verified account (KYC)');
    }
    // The proof and the proven amounts name the balance: they cross the wire only sealed.
    const decryption_proof =
      sealed_decryption_proof === null
        ? null
        : utf8Decode(
            unseal(this.dataKey, sealed_decryption_proof, decryptionProofSealingContext(account_id)),
          );
    const proofs =
      decryption_proof === null ? null : parseDecryptionProofParam(decryption_proof, decimalsOfCode);
    if (proofs && !proofs.ok) {
      return fail('decryption_proof_invalid', proofs.error.message, {
        param: 'decryption_proof',
        reason: proofs.error.reason,
      });
    }
    const ledger = await this.ledgers.of(environment);
    const { ownerAddress, elgamalPubkey } = await this.custody.publicKeys(account_id, environment);
    const pubkey = decodeBase64(elgamalPubkey) ?? new Uint8Array();
    const agent = account.value.type === 'agent';
    const balances: SealedBalanceEntry[] = [];
    for (const { code } of ledger.assets()) {
      const asset = code as AssetCode;
      const view = await this.currentView(ledger, account_id, environment, ownerAddress, asset, {
        // An agent's public balance is what its signed x402 payments draw on: it stays public.
        depositPublic: !agent,
      });
      // ...and still the agent's: what those payments have not promised counts as held. It is on the
      // chain for anyone to read, so adding it to the proven amount and showing it leaks nothing.
      const ownPublic = agent ? await this.ownPublic(account_id, environment, asset, view.publicAmount) : 0n;
      const entry: SealedBalanceEntry = {
        asset,
        has_balance:
          ownPublic > 0n ||
          (await this.custody.hasNonZeroBalance(account_id, environment, view.decryptableAvailableBalance)),
      };
      if (include_ciphertext) {
        entry.ciphertext = encodeBase64(view.availableBalanceCiphertext);
        entry.decryptable_balance = encodeBase64(view.decryptableAvailableBalance);
        if (agent) {
          entry.public_amount = formatAmount(ownPublic, ASSET_DECIMALS[asset]);
        }
      }
      const proof = proofs?.ok ? proofs.entries.find((candidate) => candidate.asset === asset) : undefined;
      if (proof) {
        const claim = {
          elgamalPubkey: pubkey,
          availableBalanceCiphertext: view.availableBalanceCiphertext,
          amount: proof.amount,
          proof: proof.proof,
        };
        // An account that never held the asset has the all-zero ciphertext: it encrypts 0 under any key.
        const valid = isNeverFunded(view.availableBalanceCiphertext)
          ? proof.amount === 0n
          : verifyDecryptionProof(claim);
        if (!valid) {
          return fail(
            'decryption_proof_invalid',
            `The ${asset} proof does not match the balance ciphertext`,
            { param: 'decryption_proof' },
          );
        }
        entry.sealed_amount = sealAmount(
          this.dataKey,
          proof.amount + ownPublic,
          balanceSealingContext(account_id, asset),
        );
      }
      balances.push(entry);
    }
    const unknown = proofs?.ok
      ? proofs.entries.find((entry) => !balances.some((b) => b.asset === entry.asset))
      : undefined;
    if (unknown) {
      return fail('decryption_proof_invalid', `No ${unknown.asset} balance on this ledger`, {
        param: 'decryption_proof',
      });
    }
    return ok({ balances });
  }

  /** An agent's public balance but what its signed, unsettled x402 payments were promised. */
  private async ownPublic(
    accountId: string,
    environment: Environment,
    asset: AssetCode,
    publicAmount: bigint,
  ): Promise<bigint> {
    return publicAmount === 0n
      ? 0n
      : spendablePublic(publicAmount, await this.x402Payments.promisedPublic(accountId, environment, asset));
  }

  /**
   * Received funds wait in the pending balance, and standard transfers pay into the public one:
   * both are moved into the available balance first, so the answer includes them.
   */
  private async currentView(
    ledger: LedgerPort,
    accountId: string,
    environment: Environment,
    owner: string,
    asset: AssetCode,
    { depositPublic }: { depositPublic: boolean },
  ): Promise<ConfidentialAccountView> {
    const read = async () => {
      const view = await ledger.readAccount(address(owner), asset);
      if (!view.confidentialReady) {
        throw new Error(`the ${asset} account of ${accountId} is not confidential-ready`);
      }
      return view;
    };
    const view = await read();
    if (
      view.pendingCreditCounter === 0n &&
      !view.decryptableStale &&
      !(depositPublic && view.publicAmount > 0n)
    ) {
      return view;
    }
    return this.locks.run(accountLockKey(accountId, environment, asset), async () => {
      await this.custody.withKeys(accountId, environment, (keys) =>
        ledger.applyPendingBalance(keys, asset, { depositPublic }),
      );
      return read();
    });
  }
}
