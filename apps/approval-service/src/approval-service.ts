import { type Runtime, type ServiceDefinition, startService } from '@cts/runtime';
import { type ApprovalSettings, approvalSettingsFrom } from './approval.settings';
import { ApprovalsModule } from './approvals.module';
import { migrations } from './migrations';
import { AgentTransactionEntity } from './transactions/agent-transaction.entity';

/** The human-in-the-loop queue: held agent transactions, their approval window and expiry. */
export const approvalService: ServiceDefinition = {
  name: 'approval-service',
  schema: 'approvals',
  entities: [AgentTransactionEntity],
  migrations,
  // The feature module needs settings, so `start` adds it; tools read only schema, entities, migrations.
  imports: [],
  // Approvals settle through transfer-service and free reservations at agent-policy-service.
  sendsCommands: true,
};

/** `settings` overrides what the environment says (tests use short intervals). */
export const start = (runtime: Runtime, settings: Partial<ApprovalSettings> = {}) =>
  startService(
    {
      ...approvalService,
      imports: [
        ApprovalsModule.with({
          ...approvalSettingsFrom(runtime.config),
          ...settings,
        }),
      ],
    },
    runtime,
  );
