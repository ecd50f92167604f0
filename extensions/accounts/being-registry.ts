/**
 * The accounts feature's contract tags over its tables: `BeingRegistry` (the `beings` operations
 * other features call) and `NodeMeta` (the node's kept values). Both wrap the repositories, whose
 * storage faults are already defects.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { HandleTaken, NotOwnAccount } from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import type { BeingPatch } from "../souls/contract/records.ts"
import { BeingRegistry, NodeMeta, type BeingRegistryShape } from "./contract/being-registry.ts"
import { BeingsRepository } from "./repositories/beings.ts"
import { NodeMetaRepository } from "./repositories/node-meta.ts"

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const repository = yield* BeingsRepository

  const updateProfile = (beingId: string, patch: BeingPatch) =>
    sql
      .withTransaction(
        Effect.gen(function* () {
          const me = yield* repository.findHuman(beingId)
          if (Option.isNone(me))
            return yield* Effect.fail(
              new NotOwnAccount({ message: "Only a person's own account can be changed here." })
            )
          const handle = patch.handle ?? me.value.handle
          const holder = yield* repository.handleHeldBy(handle)
          if (Option.isSome(holder) && holder.value !== beingId) {
            return yield* Effect.fail(new HandleTaken({ message: `The handle @${handle} is taken. Pick another.` }))
          }
          yield* repository.updateProfile({
            id: beingId,
            displayName: patch.displayName ?? me.value.displayName,
            handle
          })
          const after = yield* repository.findHuman(beingId)
          return Option.getOrThrow(after)
        })
      )
      .pipe(orDieOnStorageFault)

  return {
    findOwner: repository.findOwner(),
    findHuman: repository.findHuman,
    listPublic: repository.listPublic(),
    findPublic: repository.findPublic,
    findPublicMany: repository.findPublicMany,
    updateProfile,
    upsertCitizen: repository.upsertCitizen,
    insertSeed: repository.insertSeed,
    raiseAgent: repository.raiseAgent,
    renameAgent: repository.renameAgent,
    releaseAgent: repository.deleteAgent
  } satisfies BeingRegistryShape
})

export const BeingRegistryLive = Layer.effect(BeingRegistry, make).pipe(Layer.provide(BeingsRepository.Default))

export const NodeMetaLive = Layer.effect(
  NodeMeta,
  Effect.map(NodeMetaRepository, (meta) => ({ keep: (key: string, value: string) => meta.keep({ key, value }) }))
).pipe(Layer.provide(NodeMetaRepository.Default))
