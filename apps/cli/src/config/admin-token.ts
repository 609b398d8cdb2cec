import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, errorCode, errorMessage, EXIT_FAILURE } from '../errors';

export interface TokenSources {
  readonly flag?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Where the gateway writes a generated token in embedded mode (ARCHITECTURE §6a/§6b). */
export function adminTokenFile(env: TokenSources['env'], cwd: string): string {
  return resolve(cwd, nonEmpty(env.CTS_DATA_DIR) ?? './.data', 'admin-token');
}

/** --token, else ADMIN_TOKEN, else the token file; blank values count as absent. */
export function resolveAdminToken(sources: TokenSources): string {
  const fromFlag = nonEmpty(sources.flag);
  if (fromFlag !== undefined) {
    return fromFlag;
  }
  const fromEnv = nonEmpty(sources.env.ADMIN_TOKEN);
  if (fromEnv !== undefined) {
    return fromEnv;
  }
  const file = adminTokenFile(sources.env, sources.cwd);
  const fromFile = nonEmpty(readTokenFile(file));
  if (fromFile !== undefined) {
    return fromFile;
  }
  throw new CliError(
    [
      'no admin token. Give it one of these ways (first wins):',
      '  1. --token <token>',
      '  2. the ADMIN_TOKEN environment variable',
      `  3. the file ${file}`,
      '     (the gateway writes it on first start in embedded mode; CTS_DATA_DIR moves it)',
    ].join('\n'),
    EXIT_FAILURE,
    'invalid_usage',
  );
}

function readTokenFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return undefined;
    }
    throw new CliError(`cannot read the admin token file ${file}: ${errorMessage(error)}`, EXIT_FAILURE);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
