/**
 * What the mail_a API tests share: a node bound to a loopback Google (test/support/google.ts)
 * with an owner and a member, every line the node prints while a file runs (no secret may be
 * among them), the browser's walk through the consent screen, and the sealed rows read straight
 * from the node's database.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { movableClock } from "../support/clock.ts"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import {
  type Client,
  registerMember,
  registerOwner,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

export const callbackPath = "/api/connections/mail_a/callback"

export interface MailANode {
  google: FakeGoogle
  node: TestNode
  owner: Registered
  member: Registered
  readonly time: ReturnType<typeof movableClock>
  /** Every line the node writes while the file runs: no secret may be among them. */
  readonly printed: Array<string>
}

const streams = [process.stdout, process.stderr] as const
const consoleMethods = ["log", "info", "warn", "error", "debug", "trace"] as const

/** Starts the node and Google before the file's tests, and records what is printed until after them. */
export const mailANode = (): MailANode => {
  const context = { time: movableClock(), printed: [] } as unknown as MailANode
  const printed = context.printed
  const originalWrites = streams.map((stream) => stream.write.bind(stream))
  const originalConsole = consoleMethods.map((name) => console[name])
  beforeAll(async () => {
    streams.forEach((stream) => {
      stream.write = ((chunk: unknown, ...rest: Array<never>) => {
        printed.push(String(chunk))
        return (originalWrites[streams.indexOf(stream)] as (...args: Array<unknown>) => boolean)(chunk, ...rest)
      }) as typeof stream.write
    })
    consoleMethods.forEach((name, index) => {
      console[name] = (...args: Array<unknown>) => {
        printed.push(args.map(String).join(" "))
        originalConsole[index]!(...args)
      }
    })
    context.google = await startGoogle()
    context.node = await startNode(
      {
        ...context.google.settings,
        mailAClientId: Option.some(clientId),
        mailAClientSecret: Option.some(Redacted.make(clientSecret)),
        encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
      },
      { clock: context.time.clock }
    )
    context.owner = await registerOwner(context.node)
    context.member = await registerMember(context.node, context.owner.client)
  })
  afterAll(async () => {
    await context.node?.close()
    await context.google?.close()
    streams.forEach((stream, index) => {
      stream.write = originalWrites[index] as typeof stream.write
    })
    consoleMethods.forEach((name, index) => {
      console[name] = originalConsole[index]!
    })
  })
  return context
}

/** One navigation as the person's browser makes it: their cookies, their address, redirects not followed. */
export const navigate = async (client: Client, url: string) => {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { ...client.headers, ...(client.cookieCount === 0 ? {} : { cookie: client.cookieHeader() }) }
  })
  return { status: response.status, location: response.headers.get("location"), text: await response.text() }
}

/** The browser's walk to the consent screen and back: answers each hop, the callback's answer last. */
export const consent = async (context: MailANode, client: Client) => {
  const start = await navigate(client, `${context.node.url}/api/connections/mail_a/auth`)
  expect(start.status, start.text).toBe(302)
  const screen = await navigate(client, start.location!)
  expect(screen.status).toBe(302)
  const callback = await navigate(client, screen.location!)
  return { start, screen, callback }
}

export const secretRows = (context: MailANode) =>
  context.node.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.unsafe<{ beingId: string; provider: string; label: string; secret: string | null }>(
        `SELECT being_id AS "beingId", provider, label, secret FROM twin_connections WHERE provider = 'mail_a'`
      )
    )
  )

/** Every token Google issued so far and the client secret: none may reach an answer or a log line. */
export const secrets = (context: MailANode) => [
  clientSecret,
  ...context.google.state.liveAccess,
  ...context.google.state.refreshTokens,
  ...context.google.tokenCalls.flatMap((call) =>
    [call.form.code, call.form.code_verifier].filter((value): value is string => value !== undefined)
  )
]

/** Each file's last check, over everything its node printed. */
export const nothingSecretPrinted = (context: MailANode) =>
  describe("what the node printed", () => {
    it("holds no token, code, verifier or client secret", () => {
      const all = context.printed.join("\n")
      for (const secret of secrets(context)) expect(all).not.toContain(secret)
    })
  })
