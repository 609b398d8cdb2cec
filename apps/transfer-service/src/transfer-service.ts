import { type Runtime, type ServiceDefinition, startService } from '@cts/platform';
import { CustodyKeyEntity } from './custody/custody-key.entity';
import { migrations } from './migrations';
import { ApiKeyTotalEntity, TransferEntity } from './transfers/transfer.entity';
import { TransfersModule } from './transfers/transfers.module';

export const transferService: ServiceDefinition = {
  name: 'transfer-service',
  schema: 'transfers',
  entities: [CustodyKeyEntity, TransferEntity, ApiKeyTotalEntity],
  migrations,
  imports: [TransfersModule],
  sendsCommands: true,
};

export const start = (runtime: Runtime) => startService(transferService, runtime);
