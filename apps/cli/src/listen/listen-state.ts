import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CliError, EXIT_FAILURE } from '../errors';

const Cursor = z.object({
  createdAt: z.iso.datetime(),
  forwarded: z.array(z.object({ id: z.string(), createdAt: z.iso.datetime() })),
});

/**
 * What survives between runs of `cts listen`: the secret it signs with (one per API key, so the
 * receiver keeps verifying whatever `--events` says) and where it stopped, per event filter
 * (`filterKey`): a run with `--events X` moves only its own position, so a later run without it
 * still forwards the other types that happened meanwhile.
 */
const ListenState = z.object({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
  cursors: z.record(z.string(), Cursor),
});
export type ListenState = z.infer<typeof ListenState>;

/** A state file written before positions were kept per filter: one position, taken as unfiltered's. */
const OneCursorState = z.object({
  secret: ListenState.shape.secret,
  cursor: z.object({ createdAt: z.iso.datetime(), idsAt: z.array(z.string()) }),
});

/** The position's name for an event filter: the types sorted, or `*` for all. */
export function filterKey(types: readonly string[]): string {
  return types.length === 0 ? '*' : [...new Set(types)].sort().join(',');
}

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
  const json: unknown = JSON.parse(text);
  const parsed = ListenState.safeParse(json);
  if (parsed.success) {
    return parsed.data;
  }
  const older = OneCursorState.safeParse(json);
  if (!older.success) {
    throw new CliError(`${path} is not a cts listen state file; remove it to start afresh`, EXIT_FAILURE);
  }
  const { createdAt, idsAt } = older.data.cursor;
  return {
    secret: older.data.secret,
    cursors: { [filterKey([])]: { createdAt, forwarded: idsAt.map((id) => ({ id, createdAt })) } },
  };
}

/** Written to a temporary file then renamed: a crash mid-write never leaves half a state. Mode 0600: it holds the secret. */
export function saveState(path: string, state: ListenState): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
