import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { type Server } from '@nestjs/microservices';
import {
  type CommandContract,
  commandEnvelopeSchema,
  commandTopicOf,
  contextFrom,
  createEnvelope,
  DomainError,
  type Envelope,
  EnvelopeMeta,
  envelopeSchema,
  type EventContract,
  fail,
  type Result,
} from '@cts/contracts';
import { inSpan, SpanKind, expiredCommands, handledMessages } from '@cts/platform';
import { randomUUID } from 'node:crypto';
import {
  deadlineExceeded,
  isExpired,
  runUnderDeadline,
  runWithoutDeadline,
} from '../deadline/command-deadline';
import { DeadLetters } from './dead-letters';
import { isTransientFailure } from './transient-failure';
import { COMMAND_HANDLER, EVENT_HANDLER } from './handler.decorators';
import {
  BATCH_HANDLER_EXTRAS,
  EVENT_BATCH_HANDLER,
  eventBatchDispatcher,
  versionedType,
  type FoundBatchHandler,
} from './event-batch';

type Method = (envelope: Envelope) => Promise<unknown>;

interface Found<C> {
  contract: C;
  method: Method;
}

/**
 * Finds the `@OnCommand` / `@OnEvent` methods of this application and registers them on its
 * transport server, whichever it is (Kafka or in-process). Every message is validated against its
 * contract before the handler runs; one that fails goes to the dead-letter topic with the reason.
 */
@Injectable()
export class HandlerRegistrar {
  private readonly logger = new Logger(HandlerRegistrar.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly deadLetters: DeadLetters,
  ) {}

  registerOn(server: Server, consumer: string): void {
    for (const [topic, dispatch] of this.commandDispatchers(consumer)) {
      server.addHandler(topic, dispatch, false);
    }
    const eventsByTopic = new Map<string, Found<EventContract>[]>();
    for (const found of this.find<EventContract>(EVENT_HANDLER)) {
      eventsByTopic.set(found.contract.topic, [...(eventsByTopic.get(found.contract.topic) ?? []), found]);
    }
    for (const [topic, handlers] of eventsByTopic) {
      server.addHandler(topic, (data: unknown) => this.handleEvent(topic, handlers, data, consumer), true);
    }
    this.registerBatchHandlers(server, consumer, new Set(eventsByTopic.keys()));
  }

  /**
   * `@OnEventBatch` methods: one batch handler per topic (marked in its extras), which the transport
   * calls with runs of consecutive messages of a partition. A topic is consumed one way or the other.
   */
  private registerBatchHandlers(server: Server, consumer: string, singleTopics: Set<string>): void {
    const byTopic = new Map<string, FoundBatchHandler[]>();
    for (const { contract: contracts, method } of this.find<EventContract[]>(EVENT_BATCH_HANDLER)) {
      const topics = new Set(contracts.map((contract) => contract.topic));
      const [topic] = topics;
      if (topic === undefined || topics.size > 1 || singleTopics.has(topic)) {
        throw new Error(
          `@OnEventBatch takes event types of one topic that has no @OnEvent handler (${[...topics].join(', ')})`,
        );
      }
      byTopic.set(topic, [
        ...(byTopic.get(topic) ?? []),
        { contracts, method: method as unknown as FoundBatchHandler['method'] },
      ]);
    }
    for (const [topic, handlers] of byTopic) {
      const dispatch = eventBatchDispatcher(topic, handlers, consumer, this.deadLetters);
      server.addHandler(topic, (data: unknown) => dispatch(data as unknown[]), true, BATCH_HANDLER_EXTRAS);
    }
  }

  /**
   * One handler per command topic this service consumes (normally one: `<service>.commands`), which
   * picks the command's handler by the envelope's `type`. The direct query path uses the same ones.
   */
  commandDispatchers(consumer: string): Map<string, (data: unknown) => Promise<Envelope>> {
    const byTopic = new Map<string, Map<string, Found<CommandContract>>>();
    for (const found of this.find<CommandContract>(COMMAND_HANDLER)) {
      const topic = commandTopicOf(found.contract.topic);
      byTopic.set(
        topic,
        (byTopic.get(topic) ?? new Map<string, Found<CommandContract>>()).set(found.contract.topic, found),
      );
    }
    return new Map(
      [...byTopic].map(
        ([topic, handlers]) =>
          [topic, (data: unknown) => this.dispatchCommand(topic, handlers, data, consumer)] as const,
      ),
    );
  }

  private async dispatchCommand(
    topic: string,
    handlers: Map<string, Found<CommandContract>>,
    data: unknown,
    consumer: string,
  ): Promise<Envelope> {
    const type = typeof data === 'object' && data !== null && 'type' in data ? String(data.type) : undefined;
    const found = type === undefined ? undefined : handlers.get(type);
    if (!found) {
      await this.deadLetters.send(
        topic,
        consumer,
        data,
        `no handler for the command type ${type ?? '(none)'}`,
      );
      const context = this.contextOf(data);
      return createEnvelope(
        `${type ?? 'unknown'}.reply`,
        1,
        fail('invalid_message', `${consumer} handles no command of type ${type ?? '(none)'}`),
        context,
      );
    }
    return this.handleCommand(found.contract, found.method, data, consumer);
  }

  private find<C>(key: symbol): Found<C>[] {
    const wrappers = [...this.discovery.getProviders(), ...this.discovery.getControllers()];
    return wrappers.flatMap((wrapper) => {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) {
        return [];
      }
      const prototype = Object.getPrototypeOf(instance) as object;
      return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
        const method = instance[name];
        const contract =
          typeof method === 'function' ? this.reflector.get<C | undefined>(key, method) : undefined;
        return contract && typeof method === 'function'
          ? [{ contract, method: (method as Method).bind(instance) }]
          : [];
      });
    });
  }

  private async handleCommand(
    contract: CommandContract,
    method: Method,
    data: unknown,
    consumer: string,
  ): Promise<Envelope> {
    const parsed = commandEnvelopeSchema(contract.request).safeParse(data);
    if (!parsed.success) {
      await this.deadLetters.send(contract.topic, consumer, data, parsed.error.message);
      return this.reply(
        contract,
        data,
        fail('invalid_message', `The ${contract.topic} message failed validation`),
      );
    }
    const deadlineAt = parsed.data.deadline_at;
    if (isExpired(deadlineAt, Date.now())) {
      // Its sender has stopped waiting: starting now would only do work nobody gets the answer of.
      this.logger.warn(`${consumer} did not start ${contract.topic} ${parsed.data.id}: its deadline passed`);
      expiredCommands.inc({ service: consumer, type: contract.topic });
      return this.reply(
        contract,
        parsed.data,
        deadlineExceeded(contract.topic, `before ${consumer} started it`),
      );
    }
    return inSpan(
      `${consumer} ${contract.topic}`,
      { kind: SpanKind.SERVER, carrier: parsed.data.trace },
      async (span) => {
        const result = await runUnderDeadline(deadlineAt, () =>
          this.run(contract.topic, () => method(parsed.data) as Promise<Result<unknown>>),
        );
        span.setAttribute('cts.outcome', result.ok ? 'ok' : result.error.code);
        handledMessages.inc({ service: consumer, type: contract.topic });
        return this.reply(contract, parsed.data, result);
      },
    );
  }

  private async handleEvent(
    topic: string,
    handlers: Found<EventContract>[],
    data: unknown,
    consumer: string,
  ): Promise<void> {
    const meta = EnvelopeMeta.safeParse(data);
    if (!meta.success) {
      await this.deadLetters.send(topic, consumer, data, meta.error.message);
      return;
    }
    const handler = handlers.find((h) => versionedType(h.contract) === versionedType(meta.data));
    if (!handler) {
      return; // Another event type of the family, or a version of it this service does not read.
    }
    const parsed = envelopeSchema(handler.contract.payload).safeParse(data);
    if (!parsed.success) {
      await this.deadLetters.send(topic, consumer, data, parsed.error.message);
      return;
    }
    // A transient failure propagates: the transport redelivers, and the handler's inbox makes that safe.
    await inSpan(`${consumer} ${meta.data.type}`, { kind: SpanKind.CONSUMER, carrier: meta.data.trace }, () =>
      runWithoutDeadline(() => handler.method(parsed.data)),
    );
    handledMessages.inc({ service: consumer, type: meta.data.type });
  }

  private async run(topic: string, call: () => Promise<Result<unknown>>): Promise<Result<unknown>> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof DomainError) {
        return { ok: false, error: error.toBody() };
      }
      if (isTransientFailure(error)) {
        this.logger.warn(
          `${topic} handler met an unavailable dependency: ${error instanceof Error ? error.message : String(error)}`,
        );
        return fail(
          'service_unavailable',
          'A dependency of the service is unavailable; retry with the same Idempotency-Key',
        );
      }
      const errorId = randomUUID();
      this.logger.error(
        `${topic} handler failed (error id ${errorId}): ${error instanceof Error ? error.stack : String(error)}`,
      );
      return fail('internal_error', `An internal error occurred (error id ${errorId})`);
    }
  }

  private reply(contract: CommandContract, cause: unknown, result: Result<unknown>): Envelope {
    return createEnvelope(`${contract.topic}.reply`, contract.version, result, this.contextOf(cause));
  }

  private contextOf(cause: unknown) {
    const meta = EnvelopeMeta.safeParse(cause);
    return meta.success
      ? contextFrom(meta.data)
      : { correlationId: 'unknown', causationId: null, environment: null, accountId: null };
  }
}
