/**
 * The `beings` table's reads for the accounts: a human by id, the owner, sign-in's credentials, an
 * address and its confirmation, which handle or address is taken, and every being as the others see
 * it. A being answers as the contract's `Being`, decoded from its row; the password hash only
 * leaves this file for the one comparison that needs it. Apart from beings.ts, which holds every
 * statement that writes the table (each telling the session cache), because a read tells no one.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { BooleanColumn, isIn, operation } from "../../../kernel/repository.ts"
import { Being } from "../contract/records.ts"
import { PublicBeing } from "../../souls/contract/records.ts"

/** A being's row as the select list below reads it: the contract's record, booleans as columns. */
export const BeingRow = Schema.Struct({
  ...Being.fields,
  isOwner: BooleanColumn,
  emailVerified: BooleanColumn,
  suspended: BooleanColumn
})

/** The select list of a being's columns, from a table known by `alias` (the sessions' join reads it too). */
export const beingColumnsOf = (alias: string) =>
  [
    "id",
    "handle",
    'display_name AS "displayName"',
    "email",
    'is_owner AS "isOwner"',
    'email_verified_at IS NOT NULL AS "emailVerified"',
    "suspended_hash IS NOT NULL AS suspended",
    'created_at AS "createdAt"'
  ]
    .map((column) => `${alias}.${column}`)
    .join(", ")

/** What a password is compared against. */
const Credentials = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  passwordHash: Schema.NullOr(Schema.String)
})

/** The reads, built where the repository is (beings.ts), over the same SQL client. */
export const makeBeingReads = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(beingColumnsOf("beings"))

  const findHuman = operation(
    "auth.findBeing",
    SqlSchema.findOne({
      Request: Schema.String,
      Result: BeingRow,
      execute: (id) => sql`SELECT ${columns} FROM beings WHERE id = ${id} AND kind = 'human'`
    })
  )

  const findOwner = operation(
    "auth.findOwner",
    SqlSchema.findOne({
      Request: Schema.Void,
      Result: BeingRow,
      execute: () => sql`SELECT ${columns} FROM beings WHERE is_owner = 1 AND kind = 'human'`
    })
  )

  const listHumans = operation(
    "auth.listBeings",
    SqlSchema.findAll({
      Request: Schema.Void,
      Result: BeingRow,
      execute: () => sql`SELECT ${columns} FROM beings WHERE kind = 'human' ORDER BY created_at`
    })
  )

  const firstHuman = SqlSchema.findOne({
    Request: Schema.Void,
    Result: Schema.Struct({ id: Schema.String }),
    execute: () => sql`SELECT id FROM beings WHERE kind = 'human' LIMIT 1`
  })

  /** Whether anyone has registered yet: the first human is the owner. */
  const anyHuman = operation("auth.anyHuman", () => Effect.map(firstHuman(), Option.isSome))

  const credentialsByEmail = operation(
    "auth.credentialsByEmail",
    SqlSchema.findOne({
      Request: Schema.String,
      Result: Credentials,
      execute: (email) =>
        sql`SELECT id, email, password_hash AS "passwordHash" FROM beings WHERE email = ${email} AND kind = 'human'`
    })
  )

  const credentialsById = operation(
    "auth.credentialsById",
    SqlSchema.findOne({
      Request: Schema.String,
      Result: Credentials,
      execute: (id) => sql`SELECT id, email, password_hash AS "passwordHash" FROM beings WHERE id = ${id}`
    })
  )

  /** The being's address and when it was confirmed (null while it is not). */
  const emailOf = operation(
    "auth.emailOf",
    SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ email: Schema.String, verifiedAt: Schema.NullOr(Schema.String) }),
      execute: (id) => sql`SELECT email, email_verified_at AS "verifiedAt" FROM beings WHERE id = ${id}`
    })
  )

  const holders = SqlSchema.findAll({
    Request: Schema.Struct({ handle: Schema.String, email: Schema.String }),
    Result: Schema.Struct({ handle: Schema.String }),
    execute: ({ handle, email }) => sql`SELECT handle FROM beings WHERE handle = ${handle} OR email = ${email}`
  })

  /** Which of a handle and an address another being already has: the handle is named first. */
  const taken = operation("auth.taken", (wanted: { readonly handle: string; readonly email: string }) =>
    Effect.map(
      holders(wanted),
      (rows): Option.Option<"handle" | "email"> =>
        rows.length === 0
          ? Option.none()
          : Option.some(rows.some((row) => row.handle === wanted.handle) ? "handle" : "email")
    )
  )

  const publicColumns = sql.literal(
    `id, kind, handle, display_name AS "displayName", is_owner AS "isOwner", created_at AS "createdAt"`
  )
  const PublicRow = Schema.Struct({ ...PublicBeing.fields, isOwner: BooleanColumn })

  /** Every being of every kind, as all signed-in beings may see it (no address, no account state). */
  const listPublic = operation(
    "auth.listPublic",
    SqlSchema.findAll({
      Request: Schema.Void,
      Result: PublicRow,
      execute: () => sql`SELECT ${publicColumns} FROM beings ORDER BY created_at, id`
    })
  )

  const findPublic = operation(
    "auth.findPublic",
    SqlSchema.findOne({
      Request: Schema.String,
      Result: PublicRow,
      execute: (id) => sql`SELECT ${publicColumns} FROM beings WHERE id = ${id}`
    })
  )

  /** The beings of these ids that exist, in one statement (a list's names); none for none. */
  const findPublicMany = operation(
    "auth.findPublicMany",
    SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: PublicRow,
      execute: (ids) => sql`SELECT ${publicColumns} FROM beings WHERE ${isIn(sql, "id", ids)}`
    })
  )

  const handleHolder = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (handle) => sql`SELECT id FROM beings WHERE handle = ${handle}`
  })

  /** Who holds a handle, if anyone. */
  const handleHeldBy = operation("auth.handleHeldBy", (handle: string) =>
    Effect.map(
      handleHolder(handle),
      Option.map((row) => row.id)
    )
  )

  return {
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
  } as const
})
