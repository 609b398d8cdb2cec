import { type ViewContext, type ViewDefinition } from '../app/view';
import { h, replaceChildren } from '../ui/dom';
import { subscriptionCard } from './webhook-card';
import { webhookCreateForm } from './webhook-create-form';

async function render(context: ViewContext): Promise<void> {
  const list = h('div', {}, h('p', {}, 'Loading subscriptions…'));
  const secretSlot = h('div');
  const load = async () => {
    try {
      const { webhooks } = await context.client.webhooks();
      const actions = {
        reload: () => void load(),
        showSecret: (panel: HTMLElement | null) => replaceChildren(secretSlot, panel),
      };
      replaceChildren(
        list,
        webhooks.length === 0
          ? h('p', {}, 'No subscriptions yet.')
          : h(
              'ul',
              { class: 'cards', attrs: { 'aria-label': 'Subscriptions' } },
              webhooks.map((webhook) => subscriptionCard(context, webhook, actions)),
            ),
      );
    } catch (error) {
      replaceChildren(list, h('p', {}, 'The subscriptions could not be loaded.'));
      context.fail(error);
    }
  };
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'Webhooks'),
    h(
      'p',
      { class: 'intro' },
      'Signed HTTPS deliveries of transfer and agent events. A delivery without a 2xx answer is retried for 24 hours; replay sends a stored event again. An endpoint whose deliveries all fail for days is disabled automatically, and your other subscriptions get a webhook.endpoint.disabled event.',
    ),
    secretSlot,
    list,
    webhookCreateForm(context, secretSlot, () => void load()),
  );
  await load();
}

export const webhooksView: ViewDefinition = {
  title: 'Webhooks',
  render(context) {
    void render(context);
  },
};
