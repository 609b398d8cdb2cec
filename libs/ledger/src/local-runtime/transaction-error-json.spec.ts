import { describeTransactionError } from './transaction-error-json';

describe('describeTransactionError', () => {
  it('words errors as Solana nodes do', () => {
    expect(describeTransactionError('BlockhashNotFound')).toBe('BlockhashNotFound');
    expect(describeTransactionError({ InstructionError: [2, { Custom: 26 }] })).toBe(
      'Error processing Instruction 2: custom program error: 0x1a',
    );
    expect(describeTransactionError({ InstructionError: [0, 'InvalidInstructionData'] })).toBe(
      'Error processing Instruction 0: "InvalidInstructionData"',
    );
  });
});
