/** The memory record as the memory skills answer it: the twin's Memory, defined once in the kernel's contract. */
export { Memory as MemoryRecord, MemoryKind } from "../../kernel/contract/memory.ts"

/** What a skill says on a node whose host gives it no memory adapter (a test harness, a plugin not granted it). */
export const notWired = "memory is not wired on this node yet."
