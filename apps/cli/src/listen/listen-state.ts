import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CliError, EXIT_FAILURE } from '../errors';
import { type ListenCursor } from './listen-cursor.domain';

/** What survives between runs of `cts listen`: the secret it signs with and where it stopped. */
const ListenState = z.object({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
  cursor: z.object({ createdAt: z.iso.datetime(), idsAt: z.array(z.string()) }),
});
export type ListenState = z.infer<typeof ListenState>;

/**
 * One file per API key (named by a hash of it, never the key) under `<CTS_CONFIG_DIR>` or
 * `~/.config/cts/listen`: the same key resumes where it stopped with the same secret.
 */
export function defaultStatePath(env: Readonly<Record<string, string | undefined>>, apiKey: string): string {
  const base = env.CTS_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.config', 'cts');
  const name = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
  return join(base, 'listen', `${name}.json`);
}

export function loadState(path: string): ListenState | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const parsed = ListenState.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new CliError(`${path} is not a cts listen state file; remove it to start afresh`, EXIT_FAILURE);
  }
  return parsed.data;
}

/** Written to a temporary file then renamed: a crash mid-write never leaves half a state. Mode 0600: it holds the secret. */
export function saveState(path: string, state: { secret: string; cursor: ListenCursor }): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
