import { Module } from '@nestjs/common';
import { BalancesHandlers } from '../balances/balances.handlers';
import { FundHandlers } from '../balances/fund.handlers';
import { CustodyModule } from '../custody/custody.module';
import { KeyTotals } from '../key-totals/key-totals';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks } from '../locks/account-locks';
import { ProvisionAccountHandlers } from '../provisioning/provision-account.handlers';
import { dataKeyProvider } from '../sealing/data-key';
import { AgentGate } from './agent-gate';
import { CreateTransferHandlers } from './create-transfer.handlers';
import { KnownParties } from './known-parties';
import { Reconciler } from './reconciler';
import { Settlement } from './settlement';
import { TransferQueryHandlers } from './transfer-queries.handlers';
import { TransferRepository } from './transfer.repository';
import { PayX402Handlers } from '../x402/pay-x402.handlers';
import { X402Claims } from '../x402/x402-claims';
import { X402PaymentRepository } from '../x402/x402-payment.repository';
import { X402SettlementHandlers } from '../x402/x402-settlement.handlers';
import { X402Signer } from '../x402/x402-signer';
import { X402Signing } from '../x402/x402-signing';

@Module({
  imports: [CustodyModule],
  providers: [
    dataKeyProvider,
    Ledgers,
    AccountLocks,
    KeyTotals,
    TransferRepository,
    Settlement,
    AgentGate,
    KnownParties,
    Reconciler,
    ProvisionAccountHandlers,
    CreateTransferHandlers,
    TransferQueryHandlers,
    BalancesHandlers,
    FundHandlers,
    X402PaymentRepository,
    X402Signer,
    X402Signing,
    X402Claims,
    PayX402Handlers,
    X402SettlementHandlers,
  ],
})
export class TransfersModule {}
