import { Module } from '@nestjs/common';
import { AgentHandlers } from './agents/agent.handlers';
import { AgentRepository } from './agents/agent.repository';
import { OwnPolicyHandlers } from './policies/own-policy.handlers';
import { PolicyHandlers } from './policies/policy.handlers';
import { SpendPolicyRepository } from './policies/spend-policy.repository';
import { SpendHandlers } from './spending/spend.handlers';
import { SpendLedger } from './spending/spend-ledger';
import { SpendReservationRepository } from './spending/spend-reservation.repository';
import { SpendSealer } from './spending/spend-sealer';

@Module({
  providers: [
    AgentRepository,
    SpendPolicyRepository,
    SpendReservationRepository,
    SpendSealer,
    SpendLedger,
    AgentHandlers,
    PolicyHandlers,
    OwnPolicyHandlers,
    SpendHandlers,
  ],
})
export class AgentPolicyModule {}
