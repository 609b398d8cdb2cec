import { type DynamicModule, Module } from '@nestjs/common';
import { APPROVAL_SETTINGS, type ApprovalSettings } from './approval.settings';
import { DecisionHandlers } from './decisions/decision.handlers';
import { Reservations } from './decisions/reservations';
import { Settlement } from './decisions/settlement';
import { FollowUpSweeper } from './follow-up/follow-up.sweeper';
import { HoldHandlers } from './holds/hold.handlers';
import { LookupHandlers } from './lookups/lookup.handlers';
import { AgentTransactionRepository } from './transactions/agent-transaction.repository';
import { Transitions } from './transactions/transitions';

@Module({})
export class ApprovalsModule {
  static with(settings: ApprovalSettings): DynamicModule {
    return {
      module: ApprovalsModule,
      providers: [
        { provide: APPROVAL_SETTINGS, useValue: settings },
        AgentTransactionRepository,
        Transitions,
        Reservations,
        Settlement,
        HoldHandlers,
        DecisionHandlers,
        LookupHandlers,
        FollowUpSweeper,
      ],
    };
  }
}
