import {
  type Address,
  type Instruction,
  type InstructionPlan,
  type TransactionMessage,
  type TransactionMessageWithFeePayer,
  type TransactionPlan,
  appendTransactionMessageInstructions,
  createTransactionPlanner,
  flattenTransactionPlan,
} from '@solana/kit';

/**
 * For each transaction of a plan, in order, the positions (in plan order) of its instructions; and the
 * plan's stages: the transactions (by index) that may be sent together, stage after stage.
 */
export interface PlanLayout {
  groups: number[][];
  stages: number[][];
}

/** A plan's messages in order, and its stages (indices of messages that may be sent together). */
export interface PlannedMessages {
  messages: PlannedMessage[];
  stages: number[][];
}

export interface PlanShape {
  /** Everything the planner's packing depends on; equal keys are packed alike. */
  key: string;
  /** The plan's instructions in plan order. */
  instructions: Instruction[];
}

const MAX_LAYOUTS = 64;

/**
 * The messages kit's transaction planner packs `plan` into, in order. Kit's planner packs instructions by compiling the whole candidate message after every
 * instruction it tries (≈ 10 ms of CPU for a confidential transfer). Its decisions depend only on the
 * plan's structure and on message sizes, and a message's size depends only on which accounts repeat
 * where (with their roles), the program of each instruction and the data lengths, never on the
 * addresses themselves. So the layout of one plan is the layout of every plan of the same shape:
 * remembered per shape, it is replayed without planning. Message packers (whose packing is their
 * own) are not described: such plans are always planned.
 */
type PlannedMessage = TransactionMessage & TransactionMessageWithFeePayer;

export async function planMessages(
  plan: InstructionPlan,
  feePayer: Address,
  newMessage: () => PlannedMessage,
): Promise<PlannedMessages> {
  const shape = describePlan(plan, feePayer);
  const layout = shape === null ? undefined : layouts.get(shape.key);
  if (shape !== null && layout !== undefined) {
    const messages = layout.groups.map((group) =>
      appendTransactionMessageInstructions(
        group.map((position) => shape.instructions[position]),
        newMessage(),
      ),
    );
    return { messages, stages: layout.stages };
  }
  const planned = await createTransactionPlanner({ createTransactionMessage: newMessage })(plan);
  const learned = shape === null ? null : layoutOf(shape, planned);
  if (shape !== null && learned !== null) {
    layouts.set(shape.key, learned);
  }
  return {
    messages: flattenTransactionPlan(planned).map((single) => single.message),
    stages: stagesOf(planned),
  };
}

/**
 * The transactions of a planned plan (indices in `flattenTransactionPlan` order) grouped in stages:
 * a sequential plan's parts go one after another, a parallel plan's parts side by side (the k-th
 * stage of each part in the k-th stage), so every transaction comes after all it depends on.
 */
export function stagesOf(plan: TransactionPlan): number[][] {
  let next = 0;
  const walk = (node: TransactionPlan): number[][] => {
    switch (node.kind) {
      case 'single':
        return [[next++]];
      case 'sequential':
        return node.plans.flatMap(walk);
      case 'parallel': {
        const stages: number[][] = [];
        for (const part of node.plans.map(walk)) {
          part.forEach((stage, k) => (stages[k] = [...(stages[k] ?? []), ...stage]));
        }
        return stages;
      }
    }
  };
  return walk(plan).filter((stage) => stage.length > 0);
}

/** What the planner's packing of `plan` depends on, or null for a plan that must always be planned. */
export function describePlan(plan: InstructionPlan, feePayer: Address): PlanShape | null {
  const ids = new Map<Address, number>([[feePayer, 0]]);
  const id = (address: Address) => {
    let value = ids.get(address);
    if (value === undefined) {
      value = ids.size;
      ids.set(address, value);
    }
    return value;
  };
  const instructions: Instruction[] = [];
  const walk = (node: InstructionPlan): string | null => {
    switch (node.kind) {
      case 'single': {
        const { instruction } = node;
        instructions.push(instruction);
        if (instruction.accounts?.some((meta) => 'lookupTableAddress' in meta) === true) {
          return null;
        }
        const accounts = (instruction.accounts ?? []).map((meta) => `${id(meta.address)}:${meta.role}`);
        return `i${id(instruction.programAddress)}(${accounts.join(',')};${instruction.data?.length ?? 0})`;
      }
      case 'sequential':
      case 'parallel': {
        const parts: string[] = [];
        for (const child of node.plans) {
          const part = walk(child);
          if (part === null) {
            return null;
          }
          parts.push(part);
        }
        const tag = node.kind === 'parallel' ? 'P' : node.divisible ? 'S' : 'N';
        return `${tag}[${parts.join(' ')}]`;
      }
      default:
        return null;
    }
  };
  const key = walk(plan);
  // The layout names instructions by position: the same instruction object twice would be ambiguous.
  return key === null || new Set(instructions).size !== instructions.length ? null : { key, instructions };
}

/** The layout of a planned transaction plan, or null if its messages hold instructions the plan lacks. */
export function layoutOf(shape: PlanShape, planned: TransactionPlan): PlanLayout | null {
  const positions = new Map(shape.instructions.map((instruction, index) => [instruction, index]));
  const groups: number[][] = [];
  for (const { message } of flattenTransactionPlan(planned)) {
    const group: number[] = [];
    for (const instruction of message.instructions) {
      const position = positions.get(instruction);
      if (position === undefined) {
        return null;
      }
      group.push(position);
    }
    groups.push(group);
  }
  return { groups, stages: stagesOf(planned) };
}

/** Layouts per plan shape, bounded (there are a handful of shapes: one or two per kind of operation). */
class PlanLayoutCache {
  private readonly layouts = new Map<string, PlanLayout>();

  get(key: string): PlanLayout | undefined {
    return this.layouts.get(key);
  }

  set(key: string, layout: PlanLayout): void {
    if (this.layouts.size >= MAX_LAYOUTS) {
      const oldest = this.layouts.keys().next();
      if (oldest.done !== true) {
        this.layouts.delete(oldest.value);
      }
    }
    this.layouts.set(key, layout);
  }
}

/** Per thread (each proof worker has its own): planning is deterministic, so this is only a memo. */
const layouts = new PlanLayoutCache();
