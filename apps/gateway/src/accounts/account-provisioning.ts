import { Injectable } from '@nestjs/common';
import { type Environment, type MessageContext, newId, ProvisionLedgerAccount } from '@cts/contracts';
import { decryptMemo, deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';
import { CommandBus } from '@cts/messaging';
import { unwrap } from '../http/result';

export interface ProvisionedAccount {
  accountId: string;
  addresses: Record<Environment, string>;
  /** Shown once to the account holder; this process forgets it after the response. */
  decryptionKey: string;
}

/**
 * The first half of creating any account (admin and agents alike): transfer-service makes its custody
 * keys and ledger accounts and sends the `decryption_key` back encrypted to a one-time key of this
 * request, so no topic and no stored reply ever holds it in the clear.
 */
@Injectable()
export class AccountProvisioning {
  constructor(private readonly commands: CommandBus) {}

  async provision(context: MessageContext): Promise<ProvisionedAccount> {
    const accountId = newId('acct');
    const oneTimeSecret = generateElGamalSecret();
    try {
      const reply = unwrap(
        await this.commands.send(
          ProvisionLedgerAccount,
          { account_id: accountId, recipient_key: encodeBase64(deriveElGamalPubkey(oneTimeSecret)) },
          { ...context, accountId },
        ),
      );
      return {
        accountId,
        addresses: reply.addresses,
        decryptionKey: decryptMemo(oneTimeSecret, reply.encrypted_decryption_key),
      };
    } finally {
      oneTimeSecret.fill(0);
    }
  }
}
