import { SetMetadata } from '@nestjs/common';
import { type CommandContract, type EventContract } from '@cts/contracts';

export const COMMAND_HANDLER = Symbol('cts:command-handler');
export const EVENT_HANDLER = Symbol('cts:event-handler');

/**
 * Marks a method as the handler of a command. It receives the validated envelope and returns a
 * `Result` (or throws a `DomainError`); the reply envelope is built for it.
 */
export const OnCommand = (contract: CommandContract) => SetMetadata(COMMAND_HANDLER, contract);

/** Marks a method as a handler of one event type; it receives the validated envelope. */
export const OnEvent = (contract: EventContract) => SetMetadata(EVENT_HANDLER, contract);
