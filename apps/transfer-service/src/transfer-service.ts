import { type Runtime, type ServiceDefinition, startService } from '@cts/runtime';
import { CustodyKeyEntity } from './custody/custody-key.entity';
import { migrations } from './migrations';
import { ApiKeyTotalEntity, TransferEntity } from './transfers/transfer.entity';
import { TransfersModule } from './transfers/transfers.module';
import { X402PaymentEntity } from './x402/x402-payment.entity';

export const transferService: ServiceDefinition = {
  name: 'transfer-service',
  schema: 'transfers',
  entities: [CustodyKeyEntity, TransferEntity, ApiKeyTotalEntity, X402PaymentEntity],
  migrations,
  imports: [TransfersModule],
  sendsCommands: true,
};

export const start = (runtime: Runtime) => startService(transferService, runtime);
