import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { AppConfigSchema } from '@cts/platform';
import {
  CHART_DIR,
  dataOf,
  type Manifest,
  ofKind,
  renderChart,
  REPO_ROOT,
  VALUE_SETS,
} from './support/chart';
import { parseDockerfile } from './support/dockerfile';
import { podSpecOf } from './support/pods';

jest.setTimeout(60_000);

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/** docs/operations.md's configuration reference: from its heading to the next one. */
const operations = read('docs/operations.md');
const reference = operations.slice(
  operations.indexOf('## Configuration reference'),
  operations.indexOf('\n## ', operations.indexOf('## Configuration reference') + 1),
);

const unique = (names: Iterable<string>) => [...new Set(names)].sort();
const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1] ?? '');

/** ENV of deploy/Dockerfile (`ENV NAME=value` or `ENV NAME value`). */
function imageVariables(): string[] {
  return parseDockerfile(read('deploy/Dockerfile'))
    .filter((instruction) => instruction.keyword === 'ENV')
    .flatMap(({ args }) => (args.includes('=') ? matches(args, /(\w+)=/g) : [args.split(/\s+/)[0] ?? '']));
}

/** Environment of every docker-compose service built from our Dockerfile. */
function composeVariables(): string[] {
  const compose = load(read('docker-compose.yml'), { schema: YAML11_SCHEMA }) as {
    services: Record<string, { build?: unknown; environment?: Record<string, unknown> }>;
  };
  return Object.values(compose.services)
    .filter((service) => service.build)
    .flatMap((service) => Object.keys(service.environment ?? {}));
}

/** Every variable the chart sets: container env of its Deployments and Jobs, and ConfigMap keys. */
function chartVariables(): string[] {
  const { manifests } = renderChart({ valuesFiles: VALUE_SETS.production });
  const workloads: Manifest[] = [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')];
  return [
    ...workloads.flatMap((workload) =>
      podSpecOf(workload).containers.flatMap((container) => (container.env ?? []).map((env) => env.name)),
    ),
    ...ofKind(manifests, 'ConfigMap').flatMap((configMap) => Object.keys(dataOf(configMap))),
  ];
}

/** What the image's tools (the chart's Jobs, compose's init) read beyond AppConfig. */
function toolVariables(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = read(file);
    return [
      ...matches(text, /process\.env\.([A-Z][A-Z0-9_]*)/g),
      ...matches(text, /number\('([A-Z][A-Z0-9_]*)'\)/g),
    ];
  });
}

/** What the operator CLI reads from its environment (HOME is the system's). */
function cliVariables(): string[] {
  const dir = join(REPO_ROOT, 'apps/cli/src');
  const sources = (readdirSync(dir, { recursive: true }) as string[]).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
  );
  return sources
    .flatMap((file) => matches(readFileSync(join(dir, file), 'utf8'), /\benv\.([A-Z][A-Z0-9_]*)\b/g))
    .filter((name) => name !== 'HOME');
}

const deployed = unique([
  ...imageVariables(),
  ...composeVariables(),
  ...chartVariables(),
  ...toolVariables(['tools/provision-topics.mjs', 'tools/migrate.mjs']),
  ...cliVariables(),
]);

describe('docs/operations.md configuration reference, beyond app-config.ts', () => {
  it('finds the variables of the image, compose, the chart, the topic tool and the CLI', () => {
    expect(deployed).toEqual(
      expect.arrayContaining([
        'APP',
        'TOPIC_PARTITIONS_COMMAND',
        'TOPIC_REPLICATION_FACTOR',
        'CTS_URL',
        'CTS_CONFIG_DIR',
      ]),
    );
  });

  it.each(deployed)('documents %s', (variable) => {
    expect(reference).toContain(`\`${variable}\``);
  });
});

describe('the docs name only variables something reads', () => {
  const everyToolVariable = toolVariables(
    readdirSync(join(REPO_ROOT, 'tools'))
      .filter((file) => file.endsWith('.mjs'))
      .map((file) => `tools/${file}`),
  );
  const known = new Set([...Object.keys(AppConfigSchema.shape), ...deployed, ...everyToolVariable]);
  // Node's and OpenTelemetry's own variables, read by those libraries.
  const external = (name: string) => name === 'NODE_EXTRA_CA_CERTS' || name.startsWith('OTEL_');
  const isKnown = (name: string) =>
    known.has(name) ||
    external(name) ||
    (name.endsWith('_*') && [...known].some((variable) => variable.startsWith(name.slice(0, -1))));

  it.each(['docs/operations.md', 'docs/events.md', 'deploy/helm/cts/README.md'])('%s', (doc) => {
    const text = doc.startsWith('deploy/') ? readFileSync(join(CHART_DIR, 'README.md'), 'utf8') : read(doc);
    // A variable in backticks: capitals, digits and underscores, possibly with a <placeholder> or a *.
    const named = unique(matches(text, /`((?:[A-Z<][A-Z0-9<>]*_)+[A-Z0-9<>*]+)`/g));
    expect(named.filter((name) => !isKnown(name))).toEqual([]);
  });
});
