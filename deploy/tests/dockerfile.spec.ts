import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support/chart';
import {
  type BuildBeforeInstall,
  copiedBeforeInstall,
  dockerIgnores,
  localInstallPaths,
  missingBeforeInstall,
  parseDockerfile,
} from './support/dockerfile';

// No Docker engine runs here: these read the files a `docker build` would read.
const DOCKERFILE = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
const DOCKERIGNORE_PATH = join(REPO_ROOT, '.dockerignore');
const DOCKERIGNORE = existsSync(DOCKERIGNORE_PATH) ? readFileSync(DOCKERIGNORE_PATH, 'utf8') : '';
const { fileDependencies, workspaces } = localInstallPaths(REPO_ROOT);

function buildBeforeInstall(dockerfile: string): BuildBeforeInstall {
  const build = copiedBeforeInstall(parseDockerfile(dockerfile));
  if (!build) {
    throw new Error('no RUN installs packages with npm ci');
  }
  return build;
}

describe('deploy/Dockerfile', () => {
  it('finds the local packages npm ci installs: the vendored tarballs, in the repository', () => {
    expect(fileDependencies).toEqual(
      expect.arrayContaining([expect.stringMatching(/^vendor\/solana-program-token-2022-.*\.tgz$/)]),
    );
    for (const path of fileDependencies) {
      expect(existsSync(join(REPO_ROOT, path))).toBe(true);
    }
    expect(workspaces).toEqual(expect.arrayContaining(['apps', 'libs']));
  });

  it('copies every file: dependency of package.json and package-lock.json before npm ci', () => {
    expect(missingBeforeInstall(buildBeforeInstall(DOCKERFILE), fileDependencies, REPO_ROOT)).toEqual([]);
  });

  it('copies the lockfile and every workspace before npm ci', () => {
    const required = ['package.json', 'package-lock.json', ...workspaces];
    expect(missingBeforeInstall(buildBeforeInstall(DOCKERFILE), required, REPO_ROOT)).toEqual([]);
  });

  it('keeps those paths in the build context (.dockerignore)', () => {
    for (const path of [...fileDependencies, ...workspaces]) {
      expect({ path, ignored: dockerIgnores(DOCKERIGNORE, path) }).toEqual({ path, ignored: false });
    }
  });

  it('exposes every port the apps listen on: the gateway’s API and metrics ports, the services’ internal port', () => {
    const exposed = DOCKERFILE.split('\n')
      .filter((line) => /^EXPOSE\s/.test(line))
      .flatMap((line) => line.trim().split(/\s+/).slice(1));
    expect(exposed.sort()).toEqual(['8080', '9464', '9465']);
  });

  it('has its syntax directive on the first line, the only place BuildKit reads it', () => {
    expect(DOCKERFILE.split('\n')[0]).toMatch(/^# syntax=docker\/dockerfile:1/);
  });
});

describe('the Dockerfile check', () => {
  const withoutVendor = [
    'FROM node:20-bookworm-slim AS build',
    'WORKDIR /app',
    'COPY package.json package-lock.json ./',
    'COPY apps ./apps',
    'COPY libs ./libs',
    'RUN npm ci --no-audit --no-fund',
  ].join('\n');

  it('catches a build that runs npm ci without vendor/ (the image could not build)', () => {
    expect(missingBeforeInstall(buildBeforeInstall(withoutVendor), fileDependencies, REPO_ROOT)).toEqual(
      fileDependencies,
    );
  });

  it('catches vendor/ copied after npm ci, or emptied into the working directory', () => {
    const late = withoutVendor.replace('RUN npm ci --no-audit --no-fund', 'RUN npm ci\nCOPY vendor ./vendor');
    expect(missingBeforeInstall(buildBeforeInstall(late), fileDependencies, REPO_ROOT)).toEqual(
      fileDependencies,
    );
    const flattened = withoutVendor.replace('COPY apps', 'COPY vendor ./\nCOPY apps');
    expect(missingBeforeInstall(buildBeforeInstall(flattened), fileDependencies, REPO_ROOT)).toEqual(
      fileDependencies,
    );
  });

  it('accepts vendor/ copied whole or file by file, relative to WORKDIR', () => {
    const whole = withoutVendor.replace('COPY apps', 'COPY --link vendor/ vendor/\nCOPY apps');
    expect(missingBeforeInstall(buildBeforeInstall(whole), fileDependencies, REPO_ROOT)).toEqual([]);
    const files = withoutVendor.replace(
      'COPY apps',
      `COPY ${fileDependencies.join(' ')} /app/vendor/\nCOPY apps`,
    );
    expect(missingBeforeInstall(buildBeforeInstall(files), fileDependencies, REPO_ROOT)).toEqual([]);
  });

  it('reads .dockerignore as Docker does: a folder pattern excludes what is under it, a later ! keeps it', () => {
    expect(dockerIgnores('vendor\n', 'vendor/a.tgz')).toBe(true);
    expect(dockerIgnores('**/*.tgz\n', 'vendor/a.tgz')).toBe(true);
    expect(dockerIgnores('vendor/*.tgz\n!vendor/a.tgz\n', 'vendor/a.tgz')).toBe(false);
    expect(dockerIgnores('libs/ledger/native/target\n', 'vendor/a.tgz')).toBe(false);
  });
});
