/**
 * Connecting mail_a over a real node and a loopback Google (test/support/google.ts): the whole consent round
 * trip as a browser walks it (the node's 302 to the consent screen, the screen's redirect back to
 * the callback with code and state, the callback's 302 to the twin), PKCE checked by the fake
 * token endpoint, every bad state refused with a page that says what to do, the tokens sealed as
 * the being's connection and refreshed when they expire or the API answers 401, and no secret in
 * any answer or any line the node logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientId } from "../support/google.ts"
import { Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"
import {
  callbackPath,
  consent,
  mailANode,
  navigate,
  nothingSecretPrinted,
  secretRows,
  secrets
} from "./mail-a-support.ts"

const context = mailANode()

describe("connecting mail_a through the consent screen", () => {
  it("sends the browser to the consent screen with the client, the node's callback, the scopes, a state and a PKCE S256 challenge", async () => {
    const start = await navigate(context.owner.client, `${context.node.url}/api/connections/mail_a/auth`)
    expect(start.status).toBe(302)
    const url = new URL(start.location!)
    expect(`${url.origin}${url.pathname}`).toBe(context.google.settings.mailAAuthUrl)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: clientId,
      redirect_uri: `${context.node.url}${callbackPath}`,
      code_challenge_method: "S256"
    })
    expect(url.searchParams.get("scope")!.split(" ")).toEqual([
      "https://www.googleapis.com/auth/gmail.readonly",
      "https://www.googleapis.com/auth/gmail.send"
    ])
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // A second start is another state and another challenge.
    const again = new URL(
      (await navigate(context.owner.client, `${context.node.url}/api/connections/mail_a/auth`)).location!
    )
    expect(again.searchParams.get("state")).not.toBe(url.searchParams.get("state"))
    expect(again.searchParams.get("code_challenge")).not.toBe(url.searchParams.get("code_challenge"))
  })

  it("connects the being's mailbox on the way back: the code exchanged with the verifier, the tokens sealed, none answered", async () => {
    const { screen, callback } = await consent(context, context.owner.client)
    expect(callback).toMatchObject({ status: 302, location: "/twin?connected=mail_a" })

    const exchange = context.google.tokenCalls.at(-1)!
    expect(exchange).toMatchObject({
      grant: "authorization_code",
      form: { client_id: clientId, redirect_uri: `${context.node.url}${callbackPath}` }
    })
    const challenge = context.google.consents.at(-1)!.get("code_challenge")
    expect(createHash("sha256").update(exchange.form.code_verifier!).digest("base64url")).toBe(challenge)
    expect(screen.location).not.toContain(exchange.form.code_verifier!)

    const connections = await run(context.owner.client.api.connections.list())
    expect(connections).toEqual([
      expect.objectContaining({
        provider: "mail_a",
        label: "ada@gmail.example",
        status: "connected",
        meta: { address: "ada@gmail.example" }
      })
    ])
    const rows = await secretRows(context)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.secret).toMatch(/^nv2\./)
    const answers = JSON.stringify([
      connections,
      await run(context.owner.client.api.twin.status()),
      await run(context.owner.client.api.connections.providers())
    ])
    for (const secret of secrets(context)) {
      expect(answers).not.toContain(secret)
      expect(rows[0]!.secret).not.toContain(secret)
    }
  })

  it("refuses a replayed, unknown, missing, another being's or expired state with a page saying what to do, connecting nothing", async () => {
    const before = await secretRows(context)

    const first = await consent(context, context.member.client)
    expect(first.callback.status).toBe(302)
    const replay = await navigate(context.member.client, first.screen.location!)
    expect(replay.status).toBe(400)
    expect(replay.text).toContain("invalid_state")
    expect(replay.text).toContain("start again with Connect mail")

    const unknown = await navigate(
      context.member.client,
      `${context.node.url}${callbackPath}?code=4/forged&state=not-a-state-this-node-made`
    )
    expect(unknown.status).toBe(400)
    expect(unknown.text).toContain("unknown or was already used")
    expect((await navigate(context.member.client, `${context.node.url}${callbackPath}?code=4/forged`)).status).toBe(400)

    // Someone else's browser arriving with the owner's state: refused, and the state is spent.
    const owners = await navigate(context.owner.client, `${context.node.url}/api/connections/mail_a/auth`)
    const ownersScreen = await navigate(context.owner.client, owners.location!)
    const stolen = await navigate(context.member.client, ownersScreen.location!)
    expect(stolen.status).toBe(403)
    expect((await navigate(context.owner.client, ownersScreen.location!)).status).toBe(400)

    // Signed out: a page saying to sign in first.
    const anonymous = await navigate(new Client(context.node.url), ownersScreen.location!)
    expect(anonymous.status).toBe(401)
    expect(anonymous.text).toContain("Sign in")

    const late = await navigate(context.owner.client, `${context.node.url}/api/connections/mail_a/auth`)
    const lateScreen = await navigate(context.owner.client, late.location!)
    context.time.advance(11 * 60_000)
    const expired = await navigate(context.owner.client, lateScreen.location!)
    expect(expired.status).toBe(400)
    expect(expired.text).toContain("older than 10 minutes")

    context.google.state.consent = "deny"
    const declined = await consent(context, context.owner.client)
    context.google.state.consent = "grant"
    expect(declined.callback.status).toBe(400)
    expect(declined.callback.text).toContain("consent_declined")

    const after = await secretRows(context)
    expect(after.filter((row) => row.beingId === context.owner.being.id)).toEqual(
      before.filter((row) => row.beingId === context.owner.being.id)
    )
  })
})

describe("pending consents", () => {
  it("holds at most five per being: a sixth start retires the oldest", async () => {
    const screenOf = async () =>
      (
        await navigate(
          context.owner.client,
          (
            await navigate(context.owner.client, `${context.node.url}/api/connections/mail_a/auth`)
          ).location!
        )
      ).location!
    const oldest = await screenOf()
    const second = await screenOf()
    for (let index = 0; index < 4; index++) await screenOf()
    expect((await navigate(context.owner.client, oldest)).status).toBe(400)
    expect((await navigate(context.owner.client, second)).status).toBe(302)
  })
})

describe("a node that cannot connect mail_a", () => {
  let bare: TestNode
  let someone: Registered
  beforeAll(async () => {
    bare = await startNode({
      ...context.google.settings,
      mailAClientId: Option.none(),
      mailAClientSecret: Option.none(),
      encryptionKey: Option.some(Redacted.make("key"))
    })
    someone = await registerOwner(bare)
  })
  afterAll(() => bare?.close())

  // A node of one process without ENCRYPTION_KEY keeps a key of its own (connections-providers.test.ts); the refusal
  // for want of a key is a cluster's (test/unit/twin/secret-envelope.test.ts).
  it("says the owner must set the client, sending nobody to the consent screen", async () => {
    const consents = context.google.consents.length
    const unconfigured = await navigate(someone.client, `${bare.url}/api/connections/mail_a/auth`)
    expect(unconfigured.status).toBe(409)
    expect(unconfigured.text).toContain("MAIL_A_CLIENT_ID")
    expect(context.google.consents.length).toBe(consents)
  })
})

nothingSecretPrinted(context)
