import {
  AccountRole,
  type Address,
  type Instruction,
  type InstructionPlan,
  address,
  blockhash,
  compileTransaction,
  createTransactionMessage,
  createTransactionPlanner,
  flattenTransactionPlan,
  getAddressDecoder,
  getTransactionEncoder,
  nonDivisibleSequentialInstructionPlan,
  parallelInstructionPlan,
  pipe,
  sequentialInstructionPlan,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { describePlan, planMessages, stagesOf } from './plan-layouts';

const PROGRAM = address('ZkE1Gama1Proof11111111111111111111111111111');
const lifetime = { blockhash: blockhash('11111111111111111111111111111111'), lastValidBlockHeight: 1n };
const randomAddress = () => getAddressDecoder().decode(randomBytes(32));

const newMessage = (feePayer: Address) => () =>
  pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayer(feePayer, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
  );

/** A proof-shaped instruction: a fresh writable account, the payer signing, `size` bytes of data. */
function instruction(payer: Address, size: number, account = randomAddress()): Instruction {
  return {
    programAddress: PROGRAM,
    accounts: [
      { address: account, role: AccountRole.WRITABLE },
      { address: payer, role: AccountRole.WRITABLE_SIGNER },
    ],
    data: new Uint8Array(size),
  };
}

/** Like a confidential transfer's: three setups in parallel, the transfer, three cleanups in parallel. */
function transferLikePlan(payer: Address, sizes: number[]): InstructionPlan {
  const records = sizes.map(() => randomAddress());
  return sequentialInstructionPlan([
    parallelInstructionPlan(
      records.map((record, index) =>
        sequentialInstructionPlan([
          instruction(payer, 0, record),
          instruction(payer, sizes[index] ?? 0, record),
        ]),
      ),
    ),
    nonDivisibleSequentialInstructionPlan([instruction(payer, 200), instruction(payer, 10)]),
    parallelInstructionPlan(records.map((record) => instruction(payer, 1, record))),
  ]);
}

async function kitPlanned(plan: InstructionPlan, payer: Address): Promise<string[]> {
  const planned = await createTransactionPlanner({ createTransactionMessage: newMessage(payer) })(plan);
  return flattenTransactionPlan(planned).map(({ message }) => wire(message));
}

function wire(message: Parameters<typeof compileTransaction>[0]): string {
  return Buffer.from(getTransactionEncoder().encode(compileTransaction(message))).toString('base64');
}

describe('plan layouts', () => {
  it('packs a plan exactly as kit planner does, the first time and when replaying a remembered shape', async () => {
    for (const sizes of [
      [300, 600, 900],
      [100, 100, 100],
      [900, 950, 1_000],
    ]) {
      for (let round = 0; round < 2; round += 1) {
        const payer = randomAddress();
        const plan = transferLikePlan(payer, sizes);
        const { messages, stages } = await planMessages(plan, payer, newMessage(payer));
        expect(messages.map(wire)).toEqual(await kitPlanned(plan, payer));
        const planned = await createTransactionPlanner({ createTransactionMessage: newMessage(payer) })(plan);
        expect(stages).toEqual(stagesOf(planned));
      }
    }
  });

  it('gives plans the same shape only when accounts repeat alike, with the same roles and data sizes', () => {
    const payer = randomAddress();
    const shared = randomAddress();
    const key = (instructions: Instruction[]) =>
      describePlan(sequentialInstructionPlan(instructions), payer)?.key;
    const base = key([instruction(payer, 10, shared), instruction(payer, 10, shared)]);
    expect(key([instruction(payer, 10, randomAddress()), instruction(payer, 10, randomAddress())])).not.toBe(
      base,
    );
    expect(key([instruction(payer, 10, shared), instruction(payer, 11, shared)])).not.toBe(base);
    const other = randomAddress();
    expect(key([instruction(payer, 10, other), instruction(payer, 10, other)])).toBe(base);
    const readonly = {
      ...instruction(payer, 10, shared),
      accounts: [{ address: shared, role: AccountRole.READONLY }],
    };
    expect(key([readonly, instruction(payer, 10, shared)])).not.toBe(base);
  });

  it('sends the parallel setups together, then what follows them one by one, each transaction once', async () => {
    const payer = randomAddress();
    const plan = transferLikePlan(payer, [900, 950, 1_000]);
    const planned = await createTransactionPlanner({ createTransactionMessage: newMessage(payer) })(plan);
    const count = flattenTransactionPlan(planned).length;
    const stages = stagesOf(planned);
    expect(stages.flat().sort((a, b) => a - b)).toEqual([...Array(count).keys()]);
    // Each setup is its own transaction (its data fills one), all three in the first stage.
    expect(stages[0]).toHaveLength(3);
    expect(stages.slice(1).every((stage) => stage.length === 1)).toBe(true);
    // Within a stage nothing depends on another; across stages the order is the plan's.
    for (const [k, stage] of stages.entries()) {
      expect(Math.min(...stage)).toBeGreaterThan(Math.max(-1, ...(stages[k - 1] ?? [])));
    }
  });

  it('keeps a sequential plan one transaction per stage', async () => {
    const payer = randomAddress();
    const plan = sequentialInstructionPlan([instruction(payer, 1_000), instruction(payer, 1_000)]);
    const planned = await createTransactionPlanner({ createTransactionMessage: newMessage(payer) })(plan);
    expect(stagesOf(planned)).toEqual([[0], [1]]);
  });

  it('does not describe a plan holding the same instruction twice', () => {
    const payer = randomAddress();
    const twice = instruction(payer, 10);
    expect(describePlan(sequentialInstructionPlan([twice, twice]), payer)).toBeNull();
  });
});
