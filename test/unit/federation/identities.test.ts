/**
 * The node's key is made once and read back at every start; every being has a key: those that
 * exist when federation first runs get theirs at start, one made later the first time its did
 * is needed. Over a real SQLite file, started twice.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { Identities } from "../../../extensions/federation/identities.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { migrations } from "../../../host/migrations.ts"

const dir = mkdtempSync(join(tmpdir(), "identities-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const database = databaseLayer(migrations, { filename: join(dir, "node.db") }).pipe(
  Layer.provide(Settings.layerWith({ dataDir: dir }))
)
const start = () => ManagedRuntime.make(Identities.Default.pipe(Layer.provideMerge(database)))

const addBeing = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO beings (id, kind, handle, display_name, created_at) VALUES (${id}, 'human', ${id}, ${id}, ${new Date().toISOString()})`
  )

describe("identities", () => {
  it("keep the node's did across restarts and give every being a key", async () => {
    const before = ManagedRuntime.make(database)
    await before.runPromise(addBeing("early"))
    await before.dispose()

    const first = start()
    const nodeDid = await first.runPromise(Effect.map(Identities, (identities) => identities.node.did))
    const keyed = await first.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ being_id: string }>`SELECT being_id FROM federation_keys WHERE role = 'being'`
      )
    )
    expect(keyed.map((row) => row.being_id)).toEqual(["early"])

    await first.runPromise(addBeing("late"))
    const late = await first.runPromise(Effect.flatMap(Identities, (identities) => identities.ofBeing("late")))
    expect(Option.getOrThrow(late).did).toMatch(/^did:key:z6Mk/)
    expect(
      Option.isNone(await first.runPromise(Effect.flatMap(Identities, (identities) => identities.ofBeing("nobody"))))
    ).toBe(true)
    await first.dispose()

    const second = start()
    const again = await second.runPromise(Effect.map(Identities, (identities) => identities.node.did))
    expect(again).toBe(nodeDid)
    const lateAgain = await second.runPromise(
      Effect.flatMap(Identities, (identities) => identities.beingOfDid(Option.getOrThrow(late).did))
    )
    expect(Option.getOrThrow(lateAgain).beingId).toBe("late")
    await second.dispose()
  })
})
