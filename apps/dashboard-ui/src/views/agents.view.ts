import { type AgentAccount, type SpendPolicy } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { cell, h, replaceChildren, table } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';
import { renderAgentHistory } from './agent-history';
import { policyForm } from './policy-form';

type Agent = AgentAccount & { created_at?: string };

function policySummary(policy: SpendPolicy): HTMLElement {
  const row = (term: string, value: HTMLElement | string) => [h('dt', {}, term), h('dd', {}, value)];
  const hitl = policy.hitl_threshold_usdc;
  return h(
    'dl',
    { class: 'facts' },
    row('Daily limit', `${policy.daily_limit_usdc} USDC`),
    row('Per transaction', `${policy.per_transaction_limit_usdc} USDC`),
    row(
      'Needs approval above',
      hitl === null || hitl === undefined ? 'never (no approval threshold)' : `${hitl} USDC`,
    ),
    row('Approval window', `${policy.approval_window_minutes ?? 60} minutes`),
    row('Allowed recipients', (policy.allowed_recipients ?? []).join(', ') || 'nobody'),
    row('Assets', (policy.assets ?? []).join(', ')),
    row(
      'Active hours',
      policy.active_hours ? `${policy.active_hours} (${policy.timezone ?? 'UTC'})` : 'always',
    ),
    row('Last changed', timeElement(policy.updated_at)),
  );
}

async function renderList(context: ViewContext): Promise<void> {
  const status = h('p', { class: 'summary' }, 'Loading agents…');
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'Agents'),
    h(
      'p',
      { class: 'intro' },
      'Agent accounts act under a spend policy you set. Open one to see or change its policy.',
    ),
    status,
  );
  try {
    const { agents } = await context.client.agents();
    status.textContent =
      agents.length === 0 ? 'You have no agents yet. Create one with POST /v1/accounts/me/agents.' : '';
    status.hidden = agents.length > 0;
    if (agents.length === 0) {
      return;
    }
    const { table: element, body } = table('Your agents', [
      'Agent',
      'Status',
      'Created',
      'Account',
      'Spend policy',
    ]);
    for (const agent of agents as Agent[]) {
      body.append(
        h(
          'tr',
          {},
          cell('Agent', h('strong', {}, agent.handle)),
          cell('Status', agent.status),
          cell('Created', timeElement(agent.created_at)),
          cell('Account', idElement(agent.account_id)),
          cell(
            'Spend policy',
            h(
              'a',
              { attrs: { href: `#/agents/${encodeURIComponent(agent.account_id)}` } },
              `View or edit policy`,
              h('span', { class: 'visually-hidden' }, ` of ${agent.handle}`),
            ),
          ),
        ),
      );
    }
    context.root.append(element);
  } catch (error) {
    status.textContent = 'The agents could not be loaded.';
    context.fail(error);
  }
}

async function renderPolicy(context: ViewContext, accountId: string): Promise<void> {
  const heading = h('h1', { attrs: { tabindex: -1 } }, 'Spend policy');
  const summary = h('section', { attrs: { 'aria-labelledby': 'policy-current' } });
  const editor = h('section', { attrs: { 'aria-labelledby': 'policy-edit' } });
  const history = h('section', { attrs: { 'aria-labelledby': 'agent-history' } });
  replaceChildren(
    context.root,
    h('p', { class: 'breadcrumb' }, h('a', { attrs: { href: '#/agents' } }, '← All agents')),
    heading,
    summary,
    editor,
    history,
  );
  void renderAgentHistory(context, history, accountId);
  try {
    const [{ agents }, policy] = await Promise.all([
      context.client.agents(),
      context.client.spendPolicy(accountId),
    ]);
    const agent = agents.find((a) => a.account_id === accountId);
    heading.textContent = `Spend policy of ${agent?.handle ?? accountId}`;
    const show = (current: SpendPolicy) => {
      replaceChildren(summary, h('h2', { id: 'policy-current' }, 'Current policy'), policySummary(current));
      replaceChildren(
        editor,
        h('h2', { id: 'policy-edit' }, 'Change the policy'),
        policyForm(context, accountId, current, show),
      );
    };
    show(policy);
  } catch (error) {
    replaceChildren(summary, h('p', {}, 'This policy could not be loaded.'));
    context.fail(error);
  }
}

export const agentsView: ViewDefinition = {
  title: 'Agents',
  render(context) {
    const [accountId] = context.path;
    void (accountId ? renderPolicy(context, accountId) : renderList(context));
  },
};
