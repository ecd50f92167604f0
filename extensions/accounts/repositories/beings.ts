/**
 * The `beings` table: every statement that writes it (humans, citizens, seeds and agents alike;
 * test/unit/shape/beings-writes.test.ts holds it to that), with the accounts' reads
 * (beings-reads.ts) in one repository. Every write tells BeingChanges, after its statement,
 * so the session cache never answers a being as it was.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../../kernel/repository.ts"
import { BeingChanges } from "../contract/being-changes.ts"
import { BeingChangesLive } from "../session-cache.ts"
import { makeBeingReads } from "./beings-reads.ts"

const NewBeing = Schema.Struct({
  id: Schema.String,
  handle: Schema.String,
  displayName: Schema.String,
  email: Schema.String,
  passwordHash: Schema.String,
  isOwner: BooleanColumn,
  createdAt: Schema.String
})

export class BeingsRepository extends Effect.Service<BeingsRepository>()("auth/BeingsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const changes = yield* BeingChanges
    const {
      listPublic,
      findPublic,
      findPublicMany,
      handleHeldBy,
      findHuman,
      findOwner,
      listHumans,
      anyHuman,
      credentialsByEmail,
      credentialsById,
      emailOf,
      taken
    } = yield* makeBeingReads

    /** A write to one being's row, then the session cache told (contract/being-changes.ts). */
    const writing =
      <I, A, E, R>(beingOf: (request: I) => string, write: (request: I) => Effect.Effect<A, E, R>) =>
      (request: I) =>
        Effect.tap(write(request), () => changes.changed(beingOf(request)))

    const insertHuman = operation(
      "auth.insertBeing",
      writing(
        (being: typeof NewBeing.Type) => being.id,
        SqlSchema.void({
          Request: NewBeing,
          execute: (being) =>
            sql`INSERT INTO beings (id, kind, handle, display_name, email, password_hash, is_owner, created_at)
          VALUES (${being.id}, 'human', ${being.handle}, ${being.displayName}, ${being.email}, ${being.passwordHash},
            ${being.isOwner}, ${being.createdAt})`
        })
      )
    )

    /** Puts a hash nothing matches in place of the real one, kept aside until unsuspended. */
    const suspend = operation(
      "auth.suspendBeing",
      writing(
        ({ id }: { readonly id: string }) => id,
        SqlSchema.void({
          Request: Schema.Struct({ id: Schema.String, unusableHash: Schema.String }),
          execute: ({ id, unusableHash }) =>
            sql`UPDATE beings SET suspended_hash = password_hash, password_hash = ${unusableHash}
          WHERE id = ${id} AND suspended_hash IS NULL`
        })
      )
    )

    const unsuspend = operation(
      "auth.unsuspendBeing",
      writing(
        (id: string) => id,
        SqlSchema.void({
          Request: Schema.String,
          execute: (id) =>
            sql`UPDATE beings SET password_hash = suspended_hash, suspended_hash = NULL
          WHERE id = ${id} AND suspended_hash IS NOT NULL`
        })
      )
    )

    const PasswordChange = Schema.Struct({
      id: Schema.String,
      compared: Schema.NullOr(Schema.String),
      passwordHash: Schema.String
    })
    const compareAndSetHash = SqlSchema.findAll({
      Request: PasswordChange,
      Result: Schema.Struct({ id: Schema.String }),
      execute: ({ id, compared, passwordHash }) =>
        sql`UPDATE beings SET password_hash = ${passwordHash} WHERE id = ${id} AND password_hash = ${compared} RETURNING id`
    })

    /** Compare-and-set: the new hash lands only over the one compared; answers whether it did. */
    const replacePasswordHash = operation(
      "auth.replacePasswordHash",
      writing(
        (change: typeof PasswordChange.Type) => change.id,
        (change) => Effect.map(compareAndSetHash(change), (rows) => rows.length === 1)
      )
    )

    /**
     * A reset's new password; a suspended account stays suspended (the new hash waits where
     * suspension keeps the real one). The mailed link proved the address, so it is confirmed.
     */
    const resetPassword = operation(
      "auth.resetPasswordHash",
      writing(
        ({ id }: { readonly id: string }) => id,
        SqlSchema.void({
          Request: Schema.Struct({ id: Schema.String, passwordHash: Schema.String, now: Schema.String }),
          execute: ({ id, passwordHash, now }) =>
            sql`UPDATE beings SET
            password_hash = CASE WHEN suspended_hash IS NULL THEN ${passwordHash} ELSE password_hash END,
            suspended_hash = CASE WHEN suspended_hash IS NULL THEN NULL ELSE ${passwordHash} END,
            email_verified_at = COALESCE(email_verified_at, ${now})
          WHERE id = ${id}`
        })
      )
    )

    /** Confirms the address, if it is still the one the link was sent to. */
    const confirmEmail = operation(
      "auth.confirmEmail",
      writing(
        ({ id }: { readonly id: string }) => id,
        SqlSchema.void({
          Request: Schema.Struct({ id: Schema.String, email: Schema.String, now: Schema.String }),
          execute: ({ id, email, now }) =>
            sql`UPDATE beings SET email_verified_at = COALESCE(email_verified_at, ${now}) WHERE id = ${id} AND email = ${email}`
        })
      )
    )

    const ProfileChange = Schema.Struct({ id: Schema.String, displayName: Schema.String, handle: Schema.String })

    /** One's own name and handle (PATCH /api/beings/me); the caller checked the handle is free. */
    const updateProfile = operation(
      "auth.updateProfile",
      writing(
        (change: typeof ProfileChange.Type) => change.id,
        SqlSchema.void({
          Request: ProfileChange,
          execute: ({ id, displayName, handle }) =>
            sql`UPDATE beings SET display_name = ${displayName}, handle = ${handle} WHERE id = ${id}`
        })
      )
    )

    const NewCitizen = Schema.Struct({
      id: Schema.String,
      handle: Schema.String,
      displayName: Schema.String,
      createdAt: Schema.String
    })

    /** A citizen raised from a persona at boot, or brought up to date: no email, no password, never signs in. */
    const upsertCitizen = operation(
      "auth.upsertCitizen",
      writing(
        (citizen: typeof NewCitizen.Type) => citizen.id,
        SqlSchema.void({
          Request: NewCitizen,
          execute: (citizen) =>
            sql`INSERT INTO beings (id, kind, handle, display_name, created_at)
          VALUES (${citizen.id}, 'citizen', ${citizen.handle}, ${citizen.displayName}, ${citizen.createdAt})
          ON CONFLICT (id) DO UPDATE SET handle = excluded.handle, display_name = excluded.display_name`
        })
      )
    )

    const NewSeed = Schema.Struct({
      id: Schema.String,
      handle: Schema.String,
      displayName: Schema.String,
      createdAt: Schema.String
    })

    /** A paired seed's being: no email, no password, never signs in. False when its handle (or id) is taken. */
    const insertSeed = operation(
      "auth.insertSeed",
      writing(
        (seed: typeof NewSeed.Type) => seed.id,
        (seed: typeof NewSeed.Type) =>
          Effect.map(
            sql`INSERT INTO beings (id, kind, handle, display_name, created_at)
          VALUES (${seed.id}, 'seed', ${seed.handle}, ${seed.displayName}, ${seed.createdAt})
          ON CONFLICT DO NOTHING RETURNING id`,
            (rows) => rows.length === 1
          )
      )
    )

    const NewAgent = Schema.Struct({
      id: Schema.String,
      handle: Schema.String,
      displayName: Schema.String,
      createdAt: Schema.String
    })

    /** A being of kind 'agent' to wear an owner's cards of one persona: no email, no password, never signs in. */
    const raiseAgent = operation(
      "auth.raiseAgent",
      writing(
        (agent: typeof NewAgent.Type) => agent.id,
        SqlSchema.void({
          Request: NewAgent,
          execute: (agent) =>
            sql`INSERT INTO beings (id, kind, handle, display_name, created_at)
          VALUES (${agent.id}, 'agent', ${agent.handle}, ${agent.displayName}, ${agent.createdAt})`
        })
      )
    )

    const AgentName = Schema.Struct({ id: Schema.String, displayName: Schema.String })

    /** An agent being's name (the agents decide when it follows a card's); never another kind's. */
    const renameAgent = operation(
      "auth.renameAgent",
      writing(
        (agent: typeof AgentName.Type) => agent.id,
        SqlSchema.void({
          Request: AgentName,
          execute: ({ id, displayName }) =>
            sql`UPDATE beings SET display_name = ${displayName} WHERE id = ${id} AND kind = 'agent'`
        })
      )
    )

    /** Deletes an agent being (the agents decide when it wears no card); never another kind's. */
    const deleteAgent = operation(
      "auth.deleteAgent",
      writing(
        (id: string) => id,
        SqlSchema.void({
          Request: Schema.String,
          execute: (id) => sql`DELETE FROM beings WHERE id = ${id} AND kind = 'agent'`
        })
      )
    )

    return {
      listPublic,
      findPublic,
      findPublicMany,
      handleHeldBy,
      updateProfile,
      upsertCitizen,
      insertSeed,
      raiseAgent,
      renameAgent,
      deleteAgent,
      findHuman,
      findOwner,
      listHumans,
      anyHuman,
      credentialsByEmail,
      credentialsById,
      emailOf,
      taken,
      insertHuman,
      suspend,
      unsuspend,
      replacePasswordHash,
      resetPassword,
      confirmEmail
    } as const
  }),
  // The session cache must hear of every write here, wherever this repository is built.
  dependencies: [BeingChangesLive]
}) {}
