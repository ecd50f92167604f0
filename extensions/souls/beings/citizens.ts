/**
 * The nine personas as citizens, upserted at boot: the being (through the beings repository, so
 * the session cache hears of it), the citizen's row and its soul, in one transaction. A citizen's
 * mood survives a restart; its written fields follow the seeds.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { citizens } from "../../../seeds/citizens.ts"
import { CitizensRepository } from "../repositories/citizens-repository.ts"
import { Souls } from "../souls.ts"
import { orDieOnStorageFault } from "../../../kernel/repository.ts"
import { nowIso } from "../../../kernel/time.ts"
import { BeingRegistry } from "../../accounts/contract/being-registry.ts"
import { spanNamed } from "../../../kernel/spans.ts"

export const seedCitizens = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const beings = yield* BeingRegistry
  const rows = yield* CitizensRepository
  const souls = yield* Souls
  const createdAt = yield* nowIso
  yield* sql
    .withTransaction(
      Effect.forEach(
        citizens,
        (citizen) =>
          Effect.gen(function* () {
            const { persona } = citizen
            yield* beings.upsertCitizen({
              id: citizen.beingId,
              handle: citizen.handle,
              displayName: persona.name,
              createdAt
            })
            yield* rows.upsert({
              beingId: citizen.beingId,
              role: persona.role,
              avatar: persona.avatar,
              description: persona.description
            })
            yield* souls.seedCitizen(
              { id: citizen.beingId, displayName: persona.name },
              {
                personality: citizen.personality,
                values: persona.values,
                voice: persona.voice,
                empathyStyle: citizen.empathyStyle,
                backstory: citizen.backstory,
                purpose: citizen.purpose
              }
            )
          }),
        { discard: true }
      )
    )
    .pipe(orDieOnStorageFault)
}).pipe(spanNamed("beings.seedCitizens"))

/** Runs the seeding once the database is migrated, before the node serves. */
export const CitizensSeeded = Layer.effectDiscard(seedCitizens).pipe(
  Layer.provide(Layer.mergeAll(CitizensRepository.Default, Souls.Default))
)
