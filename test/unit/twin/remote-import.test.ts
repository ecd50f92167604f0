/**
 * A remote provider's pass (remote-import.ts): whatever the provider answers is validated against
 * ProviderSyncResult before anything is remembered, whoever wrote the provider; each item becomes
 * one episode memory by its id, so a second pass of the same items remembers nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Memories } from "../../../extensions/twin/memories.ts"
import { TwinBindings, type RemoteSync } from "../../../extensions/twin/ports.ts"
import { RemoteImporter } from "../../../extensions/twin/remote-import.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { ada, twinServices } from "../../support/twin.ts"

let models: OpenAiServer
beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(() => models.close())

const twin = () =>
  twinServices(
    Layer.mergeAll(RemoteImporter.Default, Memories.Default),
    Layer.succeed(TwinBindings, {
      embed: { available: false, model: "none", leavesDevice: false },
      cheapAvailable: false
    }),
    models.baseUrl
  )

const remoteAnswering = (answer: unknown): RemoteSync => ({
  provider: "mail_a",
  title: "Mail",
  icon: "M",
  activity: "read_email",
  configured: true,
  unconfigured: "",
  connect: "",
  pull: () => Effect.succeed(answer)
})

const item = (id: string, text: string) => ({ id, title: `About ${id}`, text, at: "2026-11-20T09:00:00.000Z" })

describe("a remote provider's pass", () => {
  it.scoped("refuses an answer that does not fit ProviderSyncResult, remembering none of it", () =>
    Effect.gen(function* () {
      yield* ada
      const importer = yield* RemoteImporter
      for (const answer of [
        { items: [item("m1", "fine"), { id: "m2", text: "" }] },
        { items: [item("x".repeat(201), "an id too long")] },
        { items: [item("m3", "y".repeat(8001))] },
        { items: "not a list" },
        "not an object"
      ]) {
        const failed = yield* Effect.flip(importer.importPass("ada", remoteAnswering(answer), null))
        expect(failed.message).toContain("does not fit ProviderSyncResult")
      }
      expect((yield* (yield* Memories).search("ada", {})).memories).toEqual([])
    }).pipe(Effect.provide(twin()))
  )

  it.scoped("remembers each item once by its id, oldest first, with the defaults the schema fills", () =>
    Effect.gen(function* () {
      yield* ada
      const importer = yield* RemoteImporter
      const answer = {
        items: [item("m2", "The newer one."), { id: "m1", text: "The older one, without title or date." }]
      }
      expect(yield* importer.importPass("ada", remoteAnswering(answer), null)).toEqual({
        items: 2,
        remembered: 2,
        known: 0,
        cursor: "",
        note: ""
      })
      expect(yield* importer.importPass("ada", remoteAnswering(answer), null)).toMatchObject({
        remembered: 0,
        known: 2
      })
      const remembered = (yield* (yield* Memories).search("ada", {})).memories
      expect(remembered.map((memory) => [memory.source, memory.content, memory.kind])).toEqual([
        ["mail_a:m2", "About m2 (2026-11-20T09:00:00.000Z)\nThe newer one.", "episode"],
        ["mail_a:m1", "The older one, without title or date.", "episode"]
      ])
    }).pipe(Effect.provide(twin()))
  )
})
