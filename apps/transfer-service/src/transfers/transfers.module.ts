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
import { Reconciler } from './reconciler';
import { Settlement } from './settlement';
import { TransferQueryHandlers } from './transfer-queries.handlers';
import { TransferRepository } from './transfer.repository';

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
    Reconciler,
    ProvisionAccountHandlers,
    CreateTransferHandlers,
    TransferQueryHandlers,
    BalancesHandlers,
    FundHandlers,
  ],
})
export class TransfersModule {}
