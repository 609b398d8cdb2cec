import { CONTRACTS_VERSION } from './index';
test('exposes the contracts version', () => expect(CONTRACTS_VERSION).toBe(1));
