export const READINESS_PROBES = Symbol('READINESS_PROBES');

/** A dependency the app needs before it takes traffic (broker, cache…). */
export interface ReadinessProbe {
  name: string;
  check: () => Promise<boolean>;
}

/**
 * One probe per name over a list that may grow and shrink (the services of one process register
 * theirs): up while every probe of that name is up. The names are those present now.
 */
export function probesByName(probes: ReadinessProbe[]): ReadinessProbe[] {
  return [...new Set(probes.map((probe) => probe.name))].map((name) => ({
    name,
    check: async () => {
      const results = await Promise.all(probes.filter((p) => p.name === name).map((p) => p.check()));
      return results.every(Boolean);
    },
  }));
}
