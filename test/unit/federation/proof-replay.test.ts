/**
 * A proof's challenges are used once by the node, not once per process: two KeyProofs services
 * over one database file (two processes of one node) accept a collect's proof once between them.
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { NodeAddress } from "../../../extensions/federation/contract/ports.ts"
import { NodeDocuments } from "../../../extensions/federation/documents.ts"
import { type KeyProof, KeyProofs } from "../../../extensions/federation/proof.ts"
import { FederationSettings } from "../../../extensions/federation/settings.ts"
import { migrations } from "../../../host/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { collectRequest, newKeyPair } from "../../support/federation.ts"

const folder = mkdtempSync(join(tmpdir(), "proof-replay-"))
const filename = join(folder, "node.db")

const processOf = () =>
  ManagedRuntime.make(
    KeyProofs.Default.pipe(
      Layer.provideMerge(NodeDocuments.Default),
      Layer.provideMerge(
        Layer.mergeAll(
          Layer.succeed(NodeAddress, { endpoint: "http://me.test", label: "me", software: "test/1" }),
          FederationSettings.layer({})
        )
      ),
      Layer.provideMerge(databaseLayer(migrations, { filename })),
      Layer.provide(Settings.layerWith({}))
    )
  )

const one = processOf()
let two: ReturnType<typeof processOf>
afterAll(async () => {
  await one.dispose()
  await two?.dispose()
  rmSync(folder, { recursive: true, force: true })
})

describe("proof challenges across processes", () => {
  it("accepts a proof once on either process: replayed to the other, it proves nothing", async () => {
    const audience = await one.runPromise(Effect.map(NodeDocuments, (documents) => documents.nodeDid))
    // Built after the first has migrated the file, as a second process starts after the first.
    two = processOf()
    expect(await two.runPromise(Effect.map(NodeDocuments, (documents) => documents.nodeDid))).toBe(audience)
    const prover = newKeyPair()
    const check = (on: typeof one, proof: KeyProof) =>
      on.runPromise(Effect.flatMap(KeyProofs, (proofs) => proofs.check(proof)))

    const proof = collectRequest(prover, audience) as unknown as KeyProof
    expect(await check(one, proof)).toEqual({ proved: prover.did })
    expect(await check(two, proof)).toEqual({ refused: "invalid" })
    expect(await check(one, proof)).toEqual({ refused: "invalid" })
    // A fresh proof from the same node still proves, on the other process.
    expect(await check(two, collectRequest(prover, audience) as unknown as KeyProof)).toEqual({ proved: prover.did })
  })
})
