import { type CtsClient } from '@cts/sdk';
import { type Amounts } from '../crypto/amounts';
import { type PendingFeed } from './pending-feed';
import { type Session } from './session';

export interface ViewContext {
  client: CtsClient;
  session: Session;
  amounts: Amounts;
  pending: PendingFeed;
  /** The view's container (inside `<main>`); emptied when the view changes. */
  root: HTMLElement;
  /** Route segments after the view name: `#/agents/acct_1` → `['acct_1']`. */
  path: string[];
  /** The route's query: `#/transfers?status=failed`. */
  query: URLSearchParams;
  navigate(hash: string): void;
  /** Reports a failed call: an API key refused (401) signs out, anything else is announced. */
  fail(error: unknown): void;
  signOut(message?: string): void;
}

export interface View {
  /** Stops timers and subscriptions when another view takes over. */
  dispose?(): void;
}

export interface ViewDefinition {
  title: string;
  render(context: ViewContext): View | void;
}
