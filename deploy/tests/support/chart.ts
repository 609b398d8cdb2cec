import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { HELM, KUBERNETES_VALIDATE, run, runOk } from './tools';

export const REPO_ROOT = resolve(__dirname, '../../..');
export const CHART_DIR = join(REPO_ROOT, 'deploy/helm/cts');
export const FIXTURES_DIR = resolve(__dirname, '../fixtures');

/** Every app the chart deploys (apps/ minus the cli); a spec checks this list against apps/. */
export const APPS = [
  'gateway',
  'account-service',
  'transfer-service',
  'agent-policy-service',
  'approval-service',
  'webhook-dispatcher',
] as const;
export type AppName = (typeof APPS)[number];

/** The value sets the chart ships with: production-shaped defaults (plus what they require), and dev. */
export const VALUE_SETS = {
  production: [join(FIXTURES_DIR, 'values-production.yaml')],
  dev: [join(CHART_DIR, 'values-dev.yaml')],
} as const;
export type ValueSetName = keyof typeof VALUE_SETS;

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface RenderOptions {
  valuesFiles?: readonly string[];
  /** `--set` pairs, e.g. `apps.gateway.replicas=3`. */
  set?: readonly string[];
  /** `--set-json` pairs, for a value that replaces a list, e.g. `networkPolicy.scrapers=[…]`. */
  setJson?: readonly string[];
  release?: string;
}

const templateArgs = (options: RenderOptions): string[] => [
  'template',
  options.release ?? 'cts',
  CHART_DIR,
  '--namespace',
  'cts',
  ...(options.valuesFiles ?? []).flatMap((file) => ['-f', file]),
  ...(options.set ?? []).flatMap((pair) => ['--set', pair]),
  ...(options.setJson ?? []).flatMap((pair) => ['--set-json', pair]),
];

export interface Rendered {
  yaml: string;
  manifests: Manifest[];
}

export function renderChart(options: RenderOptions = {}): Rendered {
  const yaml = runOk(HELM, templateArgs(options));
  const manifests = loadAll(yaml).filter((doc): doc is Manifest => typeof doc === 'object' && doc !== null);
  return { yaml, manifests };
}

/** Renders values that the chart must refuse; returns helm's error output. */
export function renderFailure(options: RenderOptions): string {
  const result = run(HELM, templateArgs(options));
  if (result.status === 0) {
    throw new Error(`helm template succeeded but should have failed (${(options.set ?? []).join(' ')})`);
  }
  return result.stderr;
}

export function lintChart(valuesFiles: readonly string[]): string {
  return runOk(HELM, ['lint', '--strict', CHART_DIR, ...valuesFiles.flatMap((file) => ['-f', file])]);
}

export interface SchemaReport {
  passed: string[];
  problems: string[];
}

/**
 * Validates rendered manifests with kubernetes-validate (strict: unknown fields are errors) against
 * one Kubernetes version's schemas. A kind without a schema is a warning there: counted as a problem.
 */
export function validateAgainstKubernetes(yaml: string, kubernetesVersion: string): SchemaReport {
  const dir = mkdtempSync(join(tmpdir(), 'cts-chart-'));
  try {
    const file = join(dir, 'manifests.yaml');
    writeFileSync(file, yaml);
    const result = run(KUBERNETES_VALIDATE, ['--strict', '-k', kubernetesVersion, file]);
    const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter(Boolean);
    const passed = lines.filter((line) => line.startsWith('INFO') && line.includes(' passed for resource '));
    const problems = lines.filter((line) => !passed.includes(line));
    if (result.status !== 0 && problems.length === 0) {
      problems.push(`kubernetes-validate exited ${result.status}`);
    }
    return { passed, problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const ofKind = (manifests: Manifest[], kind: string): Manifest[] =>
  manifests.filter((m) => m.kind === kind);

export function named(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) {
    throw new Error(
      `no ${kind} ${name} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`,
    );
  }
  return found;
}

/** The resource name of an app's objects in release "cts". */
export const appResource = (app: AppName): string => `cts-${app}`;

/** A manifest's `spec`, typed by the caller for the fields it reads. */
export const specOf = <S>(manifest: Manifest): S => (manifest as Manifest & { spec: S }).spec;

/** A ConfigMap's `data`. */
export const dataOf = (manifest: Manifest): Record<string, string> =>
  (manifest as Manifest & { data?: Record<string, string> }).data ?? {};

export interface HpaSpec {
  scaleTargetRef: { apiVersion: string; kind: string; name: string };
  minReplicas: number;
  maxReplicas: number;
  metrics: unknown[];
}
