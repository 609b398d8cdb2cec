import { Body, Controller, HttpCode, Inject, NotFoundException, Post, UseGuards } from '@nestjs/common';
import { commandTopicOf, type Envelope, QueryTypes, serviceOf } from '@cts/contracts';
import { HandlerRegistrar } from '@cts/messaging';
import { InternalTokenGuard } from './internal-token.guard';
import { SERVICE_NAME } from './runtime.tokens';

/**
 * The direct query path (distributed mode, internal port): a read's envelope in, its reply envelope
 * out, through the same validation and handlers as the command topic. Only reads: whatever changes
 * state goes through Kafka, where the inbox and ordering guard it. It answers any account's reads:
 * with INTERNAL_TOKEN set, only to the deployment's own apps (`InternalTokenGuard`).
 */
@Controller('internal/v1')
@UseGuards(InternalTokenGuard)
export class InternalQueryController {
  private dispatchers: Map<string, (data: unknown) => Promise<Envelope>> | undefined;

  constructor(
    private readonly registrar: HandlerRegistrar,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {}

  @Post('queries')
  @HttpCode(200)
  async query(@Body() envelope: unknown): Promise<Envelope> {
    const type =
      typeof envelope === 'object' && envelope !== null && 'type' in envelope ? String(envelope.type) : '';
    if (!QueryTypes.has(type) || serviceOf(type) !== this.service) {
      throw new NotFoundException(`${this.service} answers no query of type ${type || '(none)'} here`);
    }
    this.dispatchers ??= this.registrar.commandDispatchers(this.service);
    const dispatch = this.dispatchers.get(commandTopicOf(type));
    if (!dispatch) {
      throw new NotFoundException(`${this.service} has no handler for ${type}`);
    }
    return dispatch(envelope);
  }
}
