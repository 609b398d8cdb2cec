export const RUNTIME = Symbol('RUNTIME');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
