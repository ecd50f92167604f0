/**
 * retryOnConflict (kernel/transaction-retry.ts): a transaction PostgreSQL aborted for a deadlock
 * or a serialisation failure runs again; any other fault, and a domain failure, does not.
 */
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { describe, expect, it } from "vitest"
import { retryOnConflict } from "../../../kernel/transaction-retry.ts"

/** A transaction that dies with `fault` on its first `failures` runs, then answers "done"; counts its runs. */
const flaky = (failures: number, fault: () => Effect.Effect<never, unknown>) => {
  let runs = 0
  const transaction = Effect.suspend(() => {
    runs += 1
    return runs <= failures ? fault() : Effect.succeed("done")
  })
  return { transaction, runs: () => runs }
}

const pgError = (code: string) => new SqlError({ cause: Object.assign(new Error(code), { code }) })

describe("retryOnConflict", () => {
  it("runs a transaction aborted for a deadlock or a serialisation failure again", async () => {
    for (const code of ["40P01", "40001"]) {
      const asDefect = flaky(2, () => Effect.die(pgError(code)))
      expect(await Effect.runPromise(retryOnConflict(asDefect.transaction))).toBe("done")
      expect(asDefect.runs()).toBe(3)
      const asFailure = flaky(1, () => Effect.fail(pgError(code)))
      expect(await Effect.runPromise(retryOnConflict(asFailure.transaction))).toBe("done")
      expect(asFailure.runs()).toBe(2)
    }
  })

  it("gives up after five more runs, with the database's fault", async () => {
    const always = flaky(100, () => Effect.die(pgError("40P01")))
    const exit = await Effect.runPromiseExit(retryOnConflict(always.transaction))
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("SqlError")
    expect(always.runs()).toBe(6)
  })

  it("runs nothing again for another fault or a refusal", async () => {
    const unique = flaky(1, () => Effect.die(pgError("23505")))
    expect(Exit.isFailure(await Effect.runPromiseExit(retryOnConflict(unique.transaction)))).toBe(true)
    expect(unique.runs()).toBe(1)
    const refused = flaky(1, () => Effect.fail("insufficient_credits"))
    expect(await Effect.runPromiseExit(retryOnConflict(refused.transaction))).toEqual(Exit.fail("insufficient_credits"))
    expect(refused.runs()).toBe(1)
  })
})
