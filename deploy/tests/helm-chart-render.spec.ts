import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  APPS,
  lintChart,
  type Manifest,
  REPO_ROOT,
  renderChart,
  VALUE_SETS,
  validateAgainstKubernetes,
} from './support/chart';

// The chart's kubeVersion floor and the newest schemas kubernetes-validate ships.
const KUBERNETES_VERSIONS = ['1.29.0', '1.37.0'];

jest.setTimeout(120_000);

describe('the app list the chart tests use', () => {
  it('names every deployable app in apps/ (all but the cli)', () => {
    const deployable = readdirSync(join(REPO_ROOT, 'apps')).filter(
      (name) =>
        existsSync(join(REPO_ROOT, 'apps', name, 'src/main.ts')) && !['cli', 'dashboard-ui'].includes(name),
    );
    expect([...APPS].sort()).toEqual(deployable.sort());
  });
});

describe.each(Object.entries(VALUE_SETS))('the chart with %s values', (_name, valuesFiles) => {
  let yaml: string;
  let manifests: Manifest[];

  beforeAll(() => {
    ({ yaml, manifests } = renderChart({ valuesFiles }));
  });

  it('passes helm lint --strict', () => {
    expect(lintChart(valuesFiles)).toContain('0 chart(s) failed');
  });

  it.each(KUBERNETES_VERSIONS)(
    'renders only manifests valid against the Kubernetes %s schemas (strict)',
    (version) => {
      const report = validateAgainstKubernetes(yaml, version);
      expect(report.problems).toEqual([]);
      expect(report.passed).toHaveLength(manifests.length);
    },
  );

  it('renders the kinds a deployment needs and no Secret', () => {
    const kinds = new Set(manifests.map((m) => m.kind));
    for (const kind of [
      'Deployment',
      'Service',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'ConfigMap',
      'Job',
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(kinds).not.toContain('Secret');
  });

  it('gives every object a unique kind and name, and the standard labels', () => {
    const ids = manifests.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(new Set(ids).size).toBe(ids.length);
    for (const manifest of manifests) {
      expect(manifest.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'cts',
        'app.kubernetes.io/instance': 'cts',
        'app.kubernetes.io/managed-by': 'Helm',
      });
    }
  });
});
