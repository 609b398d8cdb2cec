import {
  APPS,
  type AppName,
  appResource,
  type Manifest,
  named,
  ofKind,
  renderChart,
  type RenderOptions,
  specOf,
  VALUE_SETS,
} from './support/chart';
import { podSpecOf } from './support/pods';

jest.setTimeout(60_000);

// The services' internal port (HEALTH_PORT) answers `POST /internal/v1/queries` for any account, and
// the gateway's metrics port takes `POST /internal/v1/replies`. Both require INTERNAL_TOKEN; the
// NetworkPolicies keep them cluster-internal as well (docs/decisions.md, "Kubernetes (issue 7)").
const HTTP_PORT = 8080;
const HEALTH_PORT = 9464;
const METRICS_PORT = 9465;

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string };
}
interface IngressRule {
  ports?: { port: number | string; protocol?: string }[];
  from?: Peer[];
}
interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes: string[];
  ingress?: IngressRule[];
  egress?: unknown[];
}

/** Every app pod of release "cts", and nothing else (not the hook Jobs' pods). */
const RELEASE_APPS: Peer = {
  podSelector: {
    matchLabels: { 'app.kubernetes.io/name': 'cts', 'app.kubernetes.io/instance': 'cts' },
    matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'In', values: [...APPS].sort() }],
  },
};
const DEFAULT_SCRAPER: Peer = {
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
  podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
};

const policySpec = (manifests: Manifest[], app: AppName): NetworkPolicySpec =>
  specOf<NetworkPolicySpec>(named(manifests, 'NetworkPolicy', appResource(app)));

/** The rule admitting a port: exactly one per port, or the assertion names what it found. */
function ruleFor(spec: NetworkPolicySpec, port: number): IngressRule {
  const rules = (spec.ingress ?? []).filter((rule) => rule.ports?.some((p) => p.port === port));
  expect(rules).toHaveLength(1);
  return rules[0] as IngressRule;
}

/** Whether a label selector matches a set of labels (matchLabels and In/NotIn/Exists/DoesNotExist). */
function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const value = labels[key];
    switch (operator) {
      case 'In':
        return value !== undefined && values.includes(value);
      case 'NotIn':
        return value === undefined || !values.includes(value);
      case 'Exists':
        return value !== undefined;
      default:
        return value === undefined;
    }
  });
  return byLabel && byExpression;
}

const podLabelsOf = (workload: Manifest): Record<string, string> =>
  (workload.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;

describe.each(Object.keys(VALUE_SETS) as (keyof typeof VALUE_SETS)[])('with %s values', (valueSet) => {
  let manifests: Manifest[];
  beforeAll(() => {
    ({ manifests } = renderChart({ valuesFiles: VALUE_SETS[valueSet] }));
  });

  it('puts every app behind a NetworkPolicy of its own, selecting exactly its pods, restricting ingress only', () => {
    expect(
      ofKind(manifests, 'NetworkPolicy')
        .map((policy) => policy.metadata.name)
        .sort(),
    ).toEqual(APPS.map(appResource).sort());
    for (const app of APPS) {
      const spec = policySpec(manifests, app);
      const deployment = named(manifests, 'Deployment', appResource(app));
      expect(spec.podSelector).toEqual(specOf<{ selector: LabelSelector }>(deployment).selector);
      // Egress is left open on purpose (Kafka, PostgreSQL, Redis, DNS, the Solana RPC, webhook
      // receivers anywhere on 443): the chart README says why.
      expect(spec.policyTypes).toEqual(['Ingress']);
      expect(spec.egress).toBeUndefined();
    }
  });

  it('admits nothing but the ports the app listens on, each rule naming its port', () => {
    for (const app of APPS) {
      const rules = policySpec(manifests, app).ingress ?? [];
      // A rule without `ports` would admit its sources to every port.
      expect(rules.every((rule) => (rule.ports ?? []).length > 0)).toBe(true);
      const admitted = rules.flatMap((rule) => rule.ports ?? []);
      expect(admitted.every((port) => port.protocol === 'TCP')).toBe(true);
      const listening = (
        podSpecOf(named(manifests, 'Deployment', appResource(app))).containers[0]?.ports ?? []
      ).map((port) => port.containerPort);
      expect(admitted.map((port) => port.port).sort()).toEqual(listening.sort());
      expect(listening.sort()).toEqual(app === 'gateway' ? [HTTP_PORT, METRICS_PORT] : [HEALTH_PORT]);
    }
  });

  it('opens the gateway’s API port to anyone by default (it is the public API)', () => {
    expect(ruleFor(policySpec(manifests, 'gateway'), HTTP_PORT).from).toBeUndefined();
  });

  it('admits the gateway’s metrics port (metrics, direct replies) only from the release’s apps and the scraper', () => {
    expect(ruleFor(policySpec(manifests, 'gateway'), METRICS_PORT).from).toEqual([
      RELEASE_APPS,
      DEFAULT_SCRAPER,
    ]);
  });

  it('admits every service’s internal port (internal queries, metrics) only from the release’s apps and the scraper', () => {
    for (const app of APPS.filter((name) => name !== 'gateway')) {
      expect(ruleFor(policySpec(manifests, app), HEALTH_PORT).from).toEqual([RELEASE_APPS, DEFAULT_SCRAPER]);
    }
  });

  it('counts every app’s pods as the release’s own, and not the hook Jobs’ pods', () => {
    const ownPods = RELEASE_APPS.podSelector as LabelSelector;
    for (const app of APPS) {
      expect({
        app,
        selected: selects(ownPods, podLabelsOf(named(manifests, 'Deployment', appResource(app)))),
      }).toEqual({ app, selected: true });
    }
    const jobs = ofKind(manifests, 'Job');
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(selects(ownPods, podLabelsOf(job))).toBe(false);
    }
  });
});

describe('NetworkPolicy values', () => {
  const render = (options: Omit<RenderOptions, 'valuesFiles'>) =>
    renderChart({ valuesFiles: VALUE_SETS.production, ...options }).manifests;

  it('renders no NetworkPolicy with networkPolicy.enabled=false', () => {
    expect(ofKind(render({ set: ['networkPolicy.enabled=false'] }), 'NetworkPolicy')).toEqual([]);
  });

  it('puts the configured scrapers in the metrics and internal-port rules, and no other', () => {
    const scrapers: Peer[] = [
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'vmagent' } },
      },
      { ipBlock: { cidr: '10.20.0.0/16' } },
    ];
    const manifests = render({ setJson: [`networkPolicy.scrapers=${JSON.stringify(scrapers)}`] });
    expect(ruleFor(policySpec(manifests, 'gateway'), METRICS_PORT).from).toEqual([RELEASE_APPS, ...scrapers]);
    expect(ruleFor(policySpec(manifests, 'transfer-service'), HEALTH_PORT).from).toEqual([
      RELEASE_APPS,
      ...scrapers,
    ]);
    expect(ruleFor(policySpec(manifests, 'gateway'), HTTP_PORT).from).toBeUndefined();
  });

  it('admits only the release’s apps to the internal ports without scrapers', () => {
    const manifests = render({ setJson: ['networkPolicy.scrapers=[]'] });
    expect(ruleFor(policySpec(manifests, 'gateway'), METRICS_PORT).from).toEqual([RELEASE_APPS]);
    expect(ruleFor(policySpec(manifests, 'account-service'), HEALTH_PORT).from).toEqual([RELEASE_APPS]);
  });

  it('narrows the gateway’s API port to the configured clients (an ingress controller)', () => {
    const controller: Peer = {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
      podSelector: { matchLabels: { 'app.kubernetes.io/name': 'ingress-nginx' } },
    };
    const manifests = render({ setJson: [`networkPolicy.apiClients=${JSON.stringify([controller])}`] });
    expect(ruleFor(policySpec(manifests, 'gateway'), HTTP_PORT).from).toEqual([controller]);
    expect(ruleFor(policySpec(manifests, 'gateway'), METRICS_PORT).from).toEqual([
      RELEASE_APPS,
      DEFAULT_SCRAPER,
    ]);
  });

  it('follows the ports and the release: healthPort, metricsPort, apps.gateway.port, a disabled app', () => {
    const manifests = render({
      set: [
        'healthPort=9100',
        'metricsPort=9101',
        'apps.gateway.port=3000',
        'apps.approval-service.enabled=false',
      ],
      release: 'pay',
    });
    const policy = (app: AppName) =>
      specOf<NetworkPolicySpec>(named(manifests, 'NetworkPolicy', `pay-cts-${app}`));
    const ownPods: Peer = {
      podSelector: {
        matchLabels: { 'app.kubernetes.io/name': 'cts', 'app.kubernetes.io/instance': 'pay' },
        matchExpressions: [
          {
            key: 'app.kubernetes.io/component',
            operator: 'In',
            values: APPS.filter((app) => app !== 'approval-service').sort(),
          },
        ],
      },
    };
    expect(ruleFor(policy('gateway'), 3000).from).toBeUndefined();
    expect(ruleFor(policy('gateway'), 9101).from).toEqual([ownPods, DEFAULT_SCRAPER]);
    expect(ruleFor(policy('account-service'), 9100).from).toEqual([ownPods, DEFAULT_SCRAPER]);
    expect(ofKind(manifests, 'NetworkPolicy')).toHaveLength(APPS.length - 1);
  });
});
