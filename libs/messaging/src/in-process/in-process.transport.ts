import {
  type CustomTransportStrategy,
  ClientProxy,
  type ReadPacket,
  Server,
  type WritePacket,
} from '@nestjs/microservices';
import { inServiceScope, serviceScopeLogger } from '@cts/platform';
import { isObservable, lastValueFrom } from 'rxjs';
import { MessagePublisher, type OutgoingMessage } from '../publisher';
import { isBatchHandler } from '../handlers/event-batch';
import { type InProcessBus } from './in-process-bus';

export const IN_PROCESS_TRANSPORT = Symbol('in-process');

/**
 * Nest transport server over the in-process bus: registers this service's handlers under its group.
 * A message arrives in the sender's async context: each handler runs as the service that made the
 * server (its log lines carry that service's name).
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override readonly transportId = IN_PROCESS_TRANSPORT;
  private readonly serviceLogger = serviceScopeLogger();

  constructor(
    private readonly bus: InProcessBus,
    private readonly groupId: string,
  ) {
    super();
  }

  listen(callback: () => void): void {
    const asService = <T>(work: () => T): T =>
      this.serviceLogger ? inServiceScope(this.serviceLogger, work) : work();
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler && isBatchHandler(handler)) {
        this.bus.subscribeBatch(pattern, this.groupId, (data) =>
          asService(async () => {
            await settle(await handler(data));
          }),
        );
      } else if (handler.isEventHandler) {
        this.bus.subscribe(pattern, this.groupId, (data) =>
          asService(async () => {
            await settle(await handler(data));
          }),
        );
      } else {
        this.bus.registerCommand(pattern, (data) => asService(async () => settle(await handler(data))));
      }
    }
    callback();
  }

  close(): void {
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) {
        this.bus.unsubscribe(pattern, this.groupId);
      } else {
        this.bus.unregisterCommand(pattern);
      }
    }
  }

  on(): void {
    // The in-process transport has no connection events.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }
}

function settle(result: unknown): Promise<unknown> {
  return isObservable(result) ? lastValueFrom(result, { defaultValue: undefined }) : Promise.resolve(result);
}

/** Nest client proxy over the in-process bus: `send` is a request/reply, `emit` a publish. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly bus: InProcessBus) {
    super();
  }

  async connect(): Promise<void> {
    // Nothing to connect: the bus lives in this process.
  }

  close(): void {
    // Nothing to release.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    this.bus.request(this.normalizePattern(packet.pattern as string), packet.data).then(
      (response) => callback({ response, isDisposed: true }),
      (err: unknown) => callback({ err, isDisposed: true }),
    );
    return () => undefined;
  }

  protected dispatchEvent<T>(packet: ReadPacket): Promise<T> {
    this.bus.publish(this.normalizePattern(packet.pattern as string), JSON.stringify(packet.data));
    return Promise.resolve(undefined as T);
  }
}

export class InProcessPublisher extends MessagePublisher {
  constructor(private readonly bus: InProcessBus) {
    super();
  }

  publish(messages: OutgoingMessage[]): Promise<void> {
    for (const message of messages) {
      this.bus.publish(message.topic, message.value, message.key);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
