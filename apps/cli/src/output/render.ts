/** Fields the API returns once and never again: the operator must be told to keep them. */
const SECRET_FIELDS = new Set(['secret', 'decryption_key']);

type JsonObject = Record<string, unknown>;

interface RenderState {
  readonly lines: string[];
  readonly secrets: string[];
}

/**
 * Human-readable form of an API response: aligned `key: value` lines, nested objects indented
 * under their key, then a "shown once" note for every secret. Unknown fields are shown too, so
 * the output keeps up with the API without a CLI change.
 */
export function renderHuman(title: string, value: unknown): string {
  const state: RenderState = { lines: [title], secrets: [] };
  if (isObject(value)) {
    renderObject(value, 1, [], state);
  } else {
    state.lines.push(`  ${formatScalar(value)}`);
  }
  if (state.secrets.length > 0) {
    state.lines.push('');
    for (const path of state.secrets) {
      state.lines.push(`note: ${path} is shown once — store it now`);
    }
  }
  return `${state.lines.join('\n')}\n`;
}

/** Scripts get the response exactly as the API sent it (pretty-printed). */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function renderObject(object: JsonObject, depth: number, path: readonly string[], state: RenderState): void {
  const indent = '  '.repeat(depth);
  const entries = Object.entries(object);
  const scalarKeys = entries.filter(([, value]) => !isNested(value)).map(([key]) => key.length);
  const width = Math.max(0, ...scalarKeys) + 1;
  for (const [key, value] of entries) {
    if (isNested(value)) {
      state.lines.push(`${indent}${key}:`);
      renderObject(value, depth + 1, [...path, key], state);
      continue;
    }
    state.lines.push(`${indent}${`${key}:`.padEnd(width)} ${formatScalar(value)}`);
    if (SECRET_FIELDS.has(key) && typeof value === 'string') {
      state.secrets.push([...path, key].join('.'));
    }
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNested(value: unknown): value is JsonObject {
  return isObject(value) && Object.keys(value).length > 0;
}

function formatScalar(value: unknown): string {
  if (value === null || value === undefined) {
    return '-';
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
    return value.length === 0 ? '(none)' : value.join(', ');
  }
  return JSON.stringify(value);
}
