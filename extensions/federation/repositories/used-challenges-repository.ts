/**
 * The `federation_used_challenges` table: the digests of the challenges proofs have used, each
 * until it is stale. Spending is one insert that skips digests already there and answers the ones
 * it wrote, so two processes given the same challenge at once let exactly one of them use it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

export class UsedChallengesRepository extends Effect.Service<UsedChallengesRepository>()(
  "federation/UsedChallengesRepository",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      /** Forgets the challenges stale by `now`. */
      const sweep = operation(
        "federation.sweepUsedChallenges",
        SqlSchema.void({
          Request: Schema.Struct({ now: Schema.String }),
          execute: ({ now }) => sql`DELETE FROM federation_used_challenges WHERE forget_at < ${now}`
        })
      )

      const counted = SqlSchema.single({
        Request: Schema.Void,
        Result: Schema.Struct({ remembered: Schema.Number }),
        execute: () => sql`SELECT COUNT(*) AS "remembered" FROM federation_used_challenges`
      })

      /** How many challenges are remembered now. */
      const count = operation("federation.countUsedChallenges", () =>
        Effect.map(Effect.orDie(counted(undefined)), (row) => row.remembered)
      )

      const inserted = SqlSchema.findAll({
        Request: Schema.Struct({ digests: Schema.Array(Schema.String), forgetAt: Schema.String }),
        Result: Schema.Struct({ digest: Schema.String }),
        execute: ({ digests, forgetAt }) => sql`INSERT INTO federation_used_challenges
        ${sql.insert(digests.map((digest) => ({ digest, forget_at: forgetAt })))}
        ON CONFLICT (digest) DO NOTHING RETURNING digest`
      })

      /** Marks the digests used; answers whether every one of them was still unused. */
      const spend = operation(
        "federation.spendChallenges",
        (request: { readonly digests: ReadonlyArray<string>; readonly forgetAt: string }) =>
          Effect.map(inserted(request), (rows) => rows.length === request.digests.length)
      )

      return { sweep, count, spend } as const
    })
  }
) {}
