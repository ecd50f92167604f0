/**
 * The node on PostgreSQL (DATABASE_URL), as a user sees it: the owner registers with the printed
 * code, signs in, is known to /api/auth/me, signs out; wrong codes and passwords are refused as
 * on SQLite, and a refusal writes nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { Client, firstPage, person, refused, registerMember, run } from "../support/node.ts"
import { nodeOnPostgres } from "../support/postgres-node.ts"

const context = nodeOnPostgres()

const countBeings = () =>
  context.node.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT COUNT(*) AS n FROM beings WHERE kind = 'human'`).pipe(
      Effect.map((rows) => rows[0]!.n)
    )
  )

describe("a node on PostgreSQL", () => {
  it("runs on the PostgreSQL database DATABASE_URL names", async () => {
    const dialect = await context.node.runtime.runPromise(
      Effect.map(SqlClient.SqlClient, (sql) => sql.onDialectOrElse({ pg: () => "pg", orElse: () => "other" }))
    )
    expect(dialect).toBe("pg")
  })

  it("refuses a wrong access code with 403 and registers nobody", async () => {
    const answer = await refused(
      new Client(context.node.url).api.authPublic.register({ payload: person("not-the-code") })
    )
    expect(answer.status).toBe(403)
    expect(answer.body.error).toBe("invalid_access_code")
    expect(await countBeings()).toBe(0)
  })

  it("registers the owner with the printed code, signs in and out", async () => {
    const owner = new Client(context.node.url)
    const registration = person(context.node.ownerCode)
    const { being } = await run(owner.api.authPublic.register({ payload: registration }))
    expect(being.isOwner).toBe(true)
    expect(await countBeings()).toBe(1)

    // The code is single-use: a second registration with it is refused.
    const again = await refused(
      new Client(context.node.url).api.authPublic.register({ payload: person(context.node.ownerCode) })
    )
    expect(again.status).toBe(403)
    expect(await countBeings()).toBe(1)

    const client = new Client(context.node.url)
    const wrong = await refused(
      client.api.authPublic.login({ payload: { email: registration.email, password: "wrong password" } })
    )
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toBe("invalid_credentials")
    // Emails compare without case on PostgreSQL too.
    const signedIn = await run(
      client.api.authPublic.login({
        payload: { email: registration.email.toUpperCase(), password: registration.password }
      })
    )
    expect(signedIn.being.id).toBe(being.id)
    const me = await run(client.api.auth.me())
    expect(me.being).toMatchObject({ id: being.id, handle: registration.handle, isOwner: true })

    await run(client.api.auth.logout())
    const after = await refused(client.api.auth.me())
    expect(after.status).toBe(401)

    // A minted code lets one member in, once.
    const member = await registerMember(context.node, owner)
    expect((await run(member.client.api.auth.me())).being).toMatchObject({ id: member.being.id, isOwner: false })
    const codes = await run(owner.api.auth.listCodes({ urlParams: firstPage }))
    expect(codes.filter((code) => code.usedBy === member.being.id)).toHaveLength(1)
    expect(await countBeings()).toBe(2)
  })
})
