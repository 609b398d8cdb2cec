export const READINESS_PROBES = Symbol('READINESS_PROBES');

/** A dependency the app needs before it takes traffic (broker, cache…). */
export interface ReadinessProbe {
  name: string;
  check: () => Promise<boolean>;
}
