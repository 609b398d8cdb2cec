/**
 * Recipient patterns (ARCHITECTURE §6), matched against the transfer's `to` as the sender wrote it:
 * - `*`                anything;
 * - `@name`, `@owner/agent`  that handle exactly;
 * - `example.com`      that domain exactly;
 * - `*.example.com`    any subdomain at any depth, not the apex;
 * - an on-chain address (base58, 32–44 characters) exactly.
 * Handles and domains match case-insensitively; an address is case-sensitive, as base58 is.
 * apps/cli/src/mcp/resource-url.domain.ts repeats the domain rules (the CLI may not import an app):
 * change both together.
 */

const HANDLE = /^@[a-z0-9_]{3,30}(\/[a-z0-9_-]{1,32})?$/i;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const MAX_DOMAIN_LENGTH = 253;

function domainProblem(domain: string): string | null {
  if (domain.length > MAX_DOMAIN_LENGTH) {
    return `is longer than ${MAX_DOMAIN_LENGTH} characters`;
  }
  const labels = domain.split('.');
  if (labels.some((label) => label === '')) {
    return 'has an empty label';
  }
  if (labels.some((label) => label.includes('*'))) {
    return 'may have a wildcard only as its whole first label (*.example.com)';
  }
  if (labels.some((label) => !LABEL.test(label))) {
    return 'has a label that is not letters, digits and inner hyphens (at most 63 characters)';
  }
  if (labels.length < 2) {
    return 'must be a domain with at least two labels (example.com)';
  }
  return null;
}

/** Why a pattern is malformed, or null when it is valid. */
export function recipientPatternProblem(pattern: string): string | null {
  if (pattern === '*') {
    return null;
  }
  if (pattern.startsWith('@')) {
    return HANDLE.test(pattern) ? null : 'is not a handle (@name or @owner/agent)';
  }
  if (pattern.startsWith('*.')) {
    return domainProblem(pattern.slice(2));
  }
  if (ADDRESS.test(pattern)) {
    return null;
  }
  return domainProblem(pattern);
}

/** Whether one valid pattern matches `to`. */
export function matchesRecipient(pattern: string, to: string): boolean {
  if (pattern === '*') {
    return true;
  }
  if (ADDRESS.test(pattern)) {
    return to === pattern;
  }
  const p = pattern.toLowerCase();
  const t = to.toLowerCase();
  if (p.startsWith('*.')) {
    const apex = p.slice(1); // ".example.com"
    return t.length > apex.length && t.endsWith(apex) && !t.startsWith('.') && !t.startsWith('@');
  }
  return t === p;
}

/** An empty list allows nobody. */
export function isRecipientAllowed(patterns: readonly string[], to: string): boolean {
  return patterns.some((pattern) => matchesRecipient(pattern, to));
}
