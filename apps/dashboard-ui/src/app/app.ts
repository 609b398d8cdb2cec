import { type Account, type CtsClient } from '@cts/sdk';
import { Amounts } from '../crypto/amounts';
import { button, byId, h, replaceChildren } from '../ui/dom';
import { clearNotices, describeError, isUnauthorized, notify } from '../ui/notices';
import { VIEWS, DEFAULT_VIEW } from '../views/views';
import { renderSignIn } from '../views/sign-in.view';
import { setUpUnlockDialog } from './unlock-dialog';
import { PendingFeed } from './pending-feed';
import { parseHash } from './route';
import { clientFor, environmentOf, forgetApiKey, type Session, storeApiKey, storedApiKey } from './session';
import { type View, type ViewContext } from './view';

interface Running {
  session: Session;
  client: CtsClient;
  amounts: Amounts;
  pending: PendingFeed;
  view?: View;
  viewName?: string;
}

/** The page: sign-in, then the signed-in shell (header, navigation, one view at a time). */
export class DashboardApp {
  private running: Running | undefined;
  private readonly main = byId('main');
  private readonly base = new URL(document.baseURI);

  async start(): Promise<void> {
    byId('sign-out-button').addEventListener('click', () => this.signOut());
    setUpUnlockDialog(
      () => this.running?.amounts,
      () => this.onKeyChanged(),
    );
    window.addEventListener('hashchange', () => this.route(false));
    const apiKey = storedApiKey();
    if (!apiKey) {
      this.showSignIn();
      return;
    }
    await this.resume(apiKey);
  }

  /**
   * Signs in again with the key this tab kept. Only a refused key (401) signs out: an outage or a
   * network error keeps the key and offers to try again, as `fail()` does on every other screen.
   */
  private async resume(apiKey: string): Promise<void> {
    try {
      await this.signIn(apiKey, await clientFor(apiKey).me(), undefined);
    } catch (error) {
      if (isUnauthorized(error)) {
        this.signOut('Your API key was refused. Sign in again.');
      } else {
        this.showStartFailure(apiKey, error);
      }
    }
  }

  private showStartFailure(apiKey: string, error: unknown): void {
    this.stopRunning();
    byId('site-nav').hidden = true;
    byId('account').hidden = true;
    document.title = 'Not loaded · Dashboard';
    const retry = button(
      'Try again',
      () => {
        retry.disabled = true;
        void this.resume(apiKey);
      },
      { class: 'primary' },
    );
    replaceChildren(
      this.main,
      h('h1', { attrs: { tabindex: -1 } }, 'The dashboard could not load'),
      h('p', { attrs: { role: 'alert' } }, describeError(error)),
      h('p', {}, 'You are still signed in in this tab. Try again in a moment, or sign out.'),
      h(
        'div',
        { class: 'actions' },
        retry,
        button('Sign out', () => this.signOut()),
      ),
    );
  }

  private showSignIn(message?: string): void {
    byId('site-nav').hidden = true;
    byId('account').hidden = true;
    document.title = 'Sign in · Dashboard';
    renderSignIn(this.main, message, (apiKey, account, decryptionKey) =>
      this.signIn(apiKey, account, decryptionKey),
    );
  }

  private async signIn(apiKey: string, account: Account, decryptionKey: string | undefined): Promise<void> {
    const environment = environmentOf(apiKey) ?? 'test';
    storeApiKey(apiKey);
    const client = clientFor(apiKey);
    const pending = new PendingFeed(client, (error) => this.fail(error));
    this.running = {
      session: { apiKey, environment, account },
      client,
      amounts: new Amounts(decryptionKey, this.base),
      pending,
    };
    byId('account-handle').textContent = account.handle;
    const badge = byId('account-environment');
    badge.textContent = environment === 'test' ? 'Test mode' : 'Live';
    badge.className = `environment environment-${environment}`;
    byId('account').hidden = false;
    byId('site-nav').hidden = false;
    this.updateUnlockButton();
    pending.subscribe((items) => {
      const count = byId('pending-count');
      count.hidden = items.length === 0;
      count.textContent = items.length === 0 ? '' : `${items.length} pending`;
    });
    const running = this.running;
    await pending.refresh();
    if (this.running !== running || running.viewName !== undefined) {
      return; // Signed out meanwhile, or a navigation link already opened a view: keep it.
    }
    if (!parseHash(location.hash)) {
      const first = (pending.current?.length ?? 0) > 0 ? 'approvals' : DEFAULT_VIEW;
      history.replaceState(null, '', `#/${first}`);
    }
    this.route(true);
  }

  private route(initial: boolean): void {
    const running = this.running;
    if (!running) {
      return;
    }
    const parsed = parseHash(location.hash);
    if (!parsed) {
      return; // `#main` from the skip link: not a route.
    }
    // Own names only: `#/constructor` is no view.
    const definition = Object.hasOwn(VIEWS, parsed.name) ? VIEWS[parsed.name] : undefined;
    if (!definition) {
      this.navigate(`#/${DEFAULT_VIEW}`);
      return;
    }
    running.view?.dispose?.();
    clearNotices();
    for (const link of document.querySelectorAll<HTMLAnchorElement>('#site-nav a')) {
      if (link.dataset.view === parsed.name) {
        link.setAttribute('aria-current', 'page');
      } else {
        link.removeAttribute('aria-current');
      }
    }
    document.title = `${definition.title} · Dashboard`;
    const root = h('div', { class: 'view' });
    replaceChildren(this.main, root);
    const context: ViewContext = {
      client: running.client,
      session: running.session,
      amounts: running.amounts,
      pending: running.pending,
      root,
      path: parsed.path,
      query: parsed.query,
      navigate: (hash) => this.navigate(hash),
      fail: (error) => this.fail(error),
      signOut: (message) => this.signOut(message),
    };
    running.view = definition.render(context) ?? undefined;
    running.viewName = parsed.name;
    if (!initial) {
      // A new screen: put keyboard and screen reader users at its heading.
      this.main.querySelector<HTMLElement>('h1')?.focus();
    }
  }

  private navigate(hash: string): void {
    if (location.hash === hash) {
      this.route(false);
    } else {
      location.hash = hash;
    }
  }

  private fail(error: unknown): void {
    if (isUnauthorized(error)) {
      this.signOut('The service refused your API key (revoked or expired). Sign in again.');
      return;
    }
    notify(describeError(error), 'error');
  }

  private onKeyChanged(): void {
    this.updateUnlockButton();
    this.route(true);
  }

  private updateUnlockButton(): void {
    const unlocked = this.running?.amounts.unlocked ?? false;
    byId('unlock-button').textContent = unlocked ? 'Lock amounts' : 'Unlock amounts';
  }

  /** Forgets both keys, stops polling and drops every rendered secret. */
  private signOut(message?: string): void {
    forgetApiKey();
    this.stopRunning();
    history.replaceState(null, '', location.pathname);
    clearNotices();
    this.showSignIn(message);
  }

  private stopRunning(): void {
    if (this.running) {
      this.running.view?.dispose?.();
      this.running.pending.stop();
      this.running.amounts.setKey(undefined);
      this.running = undefined;
    }
  }
}
