import { type Runtime, type ServiceDefinition, startService } from '@cts/runtime';
import { CustodyKeyEntity } from './custody/custody-key.entity';
import { Ledgers } from './ledger/ledgers';
import { migrations } from './migrations';
import { ApiKeyTotalEntity, TransferEntity } from './transfers/transfer.entity';
import { TransfersModule } from './transfers/transfers.module';
import { X402PaymentEntity } from './x402/x402-payment.entity';

const LEDGER_PROBE_TIMEOUT_MS = 2_000;

export const transferService: ServiceDefinition = {
  name: 'transfer-service',
  schema: 'transfers',
  entities: [CustodyKeyEntity, TransferEntity, ApiKeyTotalEntity, X402PaymentEntity],
  migrations,
  imports: [TransfersModule],
  sendsCommands: true,
  // Polled by the orchestrator: one block-height read per ledger, given up after 2 s.
  readiness: (app) => [{ name: 'ledger', check: () => app.get(Ledgers).reachable(LEDGER_PROBE_TIMEOUT_MS) }],
};

export const start = (runtime: Runtime) => startService(transferService, runtime);
