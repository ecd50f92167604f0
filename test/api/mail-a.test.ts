/**
 * mail_a over a real node and a loopback Google (test/support/google.ts): the whole consent round
 * trip as a browser walks it (the node's 302 to the consent screen, the screen's redirect back to
 * the callback with code and state, the callback's 302 to the twin), PKCE checked by the fake
 * token endpoint, every bad state refused with a page that says what to do, the tokens sealed as
 * the being's connection and refreshed when they expire or the API answers 401, and no secret in
 * any answer or any line the node logs.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills } from "../../kernel/extensions/skills.ts"
import { movableClock } from "../support/clock.ts"
import { at } from "../support/json.ts"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import { LiveTab } from "../support/live.ts"
import {
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

const callbackPath = "/api/connections/mail_a/callback"

/** Every line the node writes while this file runs: no secret may be among them. */
const printed: Array<string> = []
const streams = [process.stdout, process.stderr] as const
const originalWrites = streams.map((stream) => stream.write.bind(stream))
const consoleMethods = ["log", "info", "warn", "error", "debug", "trace"] as const
const originalConsole = consoleMethods.map((name) => console[name])

let google: FakeGoogle
let node: TestNode
let owner: Registered
let member: Registered
const time = movableClock()

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
  google = await startGoogle()
  node = await startNode(
    {
      ...google.settings,
      mailAClientId: Option.some(clientId),
      mailAClientSecret: Option.some(Redacted.make(clientSecret)),
      encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
    },
    { clock: time.clock }
  )
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node?.close()
  await google?.close()
  streams.forEach((stream, index) => {
    stream.write = originalWrites[index] as typeof stream.write
  })
  consoleMethods.forEach((name, index) => {
    console[name] = originalConsole[index]!
  })
})

/** One navigation as the person's browser makes it: their cookies, their address, redirects not followed. */
const navigate = async (client: Client, url: string) => {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { ...client.headers, ...(client.cookieCount === 0 ? {} : { cookie: client.cookieHeader() }) }
  })
  return { status: response.status, location: response.headers.get("location"), text: await response.text() }
}

/** The browser's walk to the consent screen and back: answers each hop, the callback's answer last. */
const consent = async (client: Client) => {
  const start = await navigate(client, `${node.url}/api/connections/mail_a/auth`)
  expect(start.status, start.text).toBe(302)
  const screen = await navigate(client, start.location!)
  expect(screen.status).toBe(302)
  const callback = await navigate(client, screen.location!)
  return { start, screen, callback }
}

const secretRows = () =>
  node.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.unsafe<{ beingId: string; provider: string; label: string; secret: string | null }>(
        `SELECT being_id AS "beingId", provider, label, secret FROM twin_connections WHERE provider = 'mail_a'`
      )
    )
  )

/** Every token Google issued so far and the client secret: none may reach an answer or a log line. */
const secrets = () => [
  clientSecret,
  ...google.state.liveAccess,
  ...google.state.refreshTokens,
  ...google.tokenCalls.flatMap((call) =>
    [call.form.code, call.form.code_verifier].filter((value): value is string => value !== undefined)
  )
]

describe("connecting mail_a through the consent screen", () => {
  it("sends the browser to the consent screen with the client, the node's callback, the scopes, a state and a PKCE S256 challenge", async () => {
    const start = await navigate(owner.client, `${node.url}/api/connections/mail_a/auth`)
    expect(start.status).toBe(302)
    const url = new URL(start.location!)
    expect(`${url.origin}${url.pathname}`).toBe(google.settings.mailAAuthUrl)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: clientId,
      redirect_uri: `${node.url}${callbackPath}`,
      code_challenge_method: "S256"
    })
    expect(url.searchParams.get("scope")!.split(" ")).toEqual([
      "https://www.googleapis.com/auth/gmail.readonly",
      "https://www.googleapis.com/auth/gmail.send"
    ])
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // A second start is another state and another challenge.
    const again = new URL((await navigate(owner.client, `${node.url}/api/connections/mail_a/auth`)).location!)
    expect(again.searchParams.get("state")).not.toBe(url.searchParams.get("state"))
    expect(again.searchParams.get("code_challenge")).not.toBe(url.searchParams.get("code_challenge"))
  })

  it("connects the being's mailbox on the way back: the code exchanged with the verifier, the tokens sealed, none answered", async () => {
    const { screen, callback } = await consent(owner.client)
    expect(callback).toMatchObject({ status: 302, location: "/twin?connected=mail_a" })

    const exchange = google.tokenCalls.at(-1)!
    expect(exchange).toMatchObject({
      grant: "authorization_code",
      form: { client_id: clientId, redirect_uri: `${node.url}${callbackPath}` }
    })
    const challenge = google.consents.at(-1)!.get("code_challenge")
    expect(createHash("sha256").update(exchange.form.code_verifier!).digest("base64url")).toBe(challenge)
    expect(screen.location).not.toContain(exchange.form.code_verifier!)

    const connections = await run(owner.client.api.connections.list())
    expect(connections).toEqual([
      expect.objectContaining({
        provider: "mail_a",
        label: "ada@gmail.example",
        status: "connected",
        meta: { address: "ada@gmail.example" }
      })
    ])
    const rows = await secretRows()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.secret).toMatch(/^nv2\./)
    const answers = JSON.stringify([
      connections,
      await run(owner.client.api.twin.status()),
      await run(owner.client.api.connections.providers())
    ])
    for (const secret of secrets()) {
      expect(answers).not.toContain(secret)
      expect(rows[0]!.secret).not.toContain(secret)
    }
  })

  it("refuses a replayed, unknown, missing, another being's or expired state with a page saying what to do, connecting nothing", async () => {
    const before = await secretRows()

    const first = await consent(member.client)
    expect(first.callback.status).toBe(302)
    const replay = await navigate(member.client, first.screen.location!)
    expect(replay.status).toBe(400)
    expect(replay.text).toContain("invalid_state")
    expect(replay.text).toContain("start again with Connect mail")

    const unknown = await navigate(
      member.client,
      `${node.url}${callbackPath}?code=4/forged&state=not-a-state-this-node-made`
    )
    expect(unknown.status).toBe(400)
    expect(unknown.text).toContain("unknown or was already used")
    expect((await navigate(member.client, `${node.url}${callbackPath}?code=4/forged`)).status).toBe(400)

    // Someone else's browser arriving with the owner's state: refused, and the state is spent.
    const owners = await navigate(owner.client, `${node.url}/api/connections/mail_a/auth`)
    const ownersScreen = await navigate(owner.client, owners.location!)
    const stolen = await navigate(member.client, ownersScreen.location!)
    expect(stolen.status).toBe(403)
    expect((await navigate(owner.client, ownersScreen.location!)).status).toBe(400)

    // Signed out: a page saying to sign in first.
    const anonymous = await navigate(new Client(node.url), ownersScreen.location!)
    expect(anonymous.status).toBe(401)
    expect(anonymous.text).toContain("Sign in")

    const late = await navigate(owner.client, `${node.url}/api/connections/mail_a/auth`)
    const lateScreen = await navigate(owner.client, late.location!)
    time.advance(11 * 60_000)
    const expired = await navigate(owner.client, lateScreen.location!)
    expect(expired.status).toBe(400)
    expect(expired.text).toContain("older than 10 minutes")

    google.state.consent = "deny"
    const declined = await consent(owner.client)
    google.state.consent = "grant"
    expect(declined.callback.status).toBe(400)
    expect(declined.callback.text).toContain("consent_declined")

    const after = await secretRows()
    expect(after.filter((row) => row.beingId === owner.being.id)).toEqual(
      before.filter((row) => row.beingId === owner.being.id)
    )
  })
})

const mailbox = [
  {
    id: "18c1f0a1b2c3d4e5",
    from: "Grace Hopper <grace@example.org>",
    subject: "The compiler works",
    date: "2026-11-20T09:00:00Z",
    text: "It translated the first program tonight.",
    unread: true
  },
  {
    id: "18c1f0a1b2c3d4e4",
    from: "alan@example.org",
    subject: "Tea on Thursday?",
    date: "2026-11-19T15:30:00Z",
    text: "Shall we have tea at four on Thursday?"
  },
  {
    id: "18c1f0a1b2c3d4e3",
    from: "Barbara Liskov <barbara@example.org>",
    subject: "Substitution",
    date: "2026-11-18T08:15:00Z",
    text: "Subtypes must be usable wherever their base types are."
  }
]

/** Starts a sync of mail_a and waits for the `read_email` activity that says how it ended. */
const syncMail = async (client: Client) => {
  const tab = await LiveTab.open(node, client)
  try {
    expect(await run(client.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))).toEqual({ started: true })
    const ended = await tab.nextOf("twin.activity", (frame) => frame.kind === "read_email")
    const created = tab.frames.filter((frame) => frame.type === "memory.created")
    return { ended, created }
  } finally {
    tab.close()
  }
}

const mailStatus = async (client: Client) =>
  (await run(client.api.twin.status())).providers.find((provider) => provider.provider === "mail_a")

describe("syncing mail_a into the twin", () => {
  it("tells a being that has not connected mail what to do, and refuses its sync", async () => {
    // The member connected in the refusals' test; a being that never did:
    const third = await registerMember(node, owner.client)
    expect(await run(third.client.api.twin.env())).toMatchObject({ gmail: true })
    expect(await mailStatus(third.client)).toMatchObject({
      configured: true,
      connected: false,
      hint: expect.stringContaining("/api/connections/mail_a/auth")
    })
    expect(await refused(third.client.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))).toMatchObject({
      status: 409,
      body: { error: "not_connected" }
    })
  })

  it("remembers each recent message once, with memory.created events and a read_email activity; a re-sync remembers nothing twice", async () => {
    google.state.mailbox = [...mailbox]
    const first = await syncMail(owner.client)
    expect(first.ended.summary).toBe("Synced Mail (Gmail): 3 new, 0 already remembered")
    const status = await mailStatus(owner.client)
    expect(status).toMatchObject({
      configured: true,
      connected: true,
      label: "ada@gmail.example",
      sync: { status: "done", detail: { items: 3, remembered: 3, known: 0 } },
      hint: null
    })
    expect(status?.lastSyncAt).not.toBeNull()

    const found = await run(owner.client.api.twin.searchMemories({ urlParams: { q: "tea Thursday" } }))
    expect(found[0]).toMatchObject({ kind: "episode", source: "mail_a:18c1f0a1b2c3d4e4", tags: ["mail_a"] })
    expect(found[0]!.content).toContain("Tea on Thursday?")
    expect(found[0]!.content).toContain("From: alan@example.org")
    expect(found[0]!.content).toContain("Shall we have tea at four on Thursday?")
    const listed = google.apiCalls.filter((call) => call.path === "/gmail/v1/users/me/messages")
    expect(listed.length).toBeGreaterThan(0)

    google.state.mailbox = [
      {
        id: "18c1f0a1b2c3d4e6",
        from: "ada@example.org",
        subject: "Notes on the engine",
        date: "2026-11-21T10:00:00Z",
        text: "The engine can weave algebraic patterns."
      },
      ...mailbox
    ]
    const second = await syncMail(owner.client)
    expect(second.ended.summary).toBe("Synced Mail (Gmail): 1 new, 3 already remembered")
    // Each new message (subject and text) waits for the learning loop once; no cheap tier here, so it stays queued.
    expect(await run(owner.client.api.twin.getLearning())).toMatchObject({ queued: 4 })
    const all = await run(owner.client.api.twin.searchMemories({ urlParams: { limit: 100 } }))
    expect(
      all
        .filter((memory) => memory.source.startsWith("mail_a:"))
        .map((memory) => memory.source)
        .sort()
    ).toEqual([
      "mail_a:18c1f0a1b2c3d4e3",
      "mail_a:18c1f0a1b2c3d4e4",
      "mail_a:18c1f0a1b2c3d4e5",
      "mail_a:18c1f0a1b2c3d4e6"
    ])
  })

  it("refreshes an expired access token before calling, and refreshes once more when the API answers 401", async () => {
    const refreshes = () => google.tokenCalls.filter((call) => call.grant === "refresh_token").length
    const before = refreshes()
    const sealedBefore = (await secretRows()).find((candidate) => candidate.beingId === owner.being.id)!.secret
    time.advance(2 * 60 * 60_000)
    await syncMail(owner.client)
    expect(refreshes()).toBe(before + 1)
    expect(google.tokenCalls.at(-1)!.form).toMatchObject({ client_id: clientId, client_secret: clientSecret })
    expect((await mailStatus(owner.client))?.sync.status).toBe("done")

    google.revokeAccess()
    const unauthorized = google.apiCalls.filter((call) => !call.authorized).length
    expect((await syncMail(owner.client)).ended.summary).toBe("Synced Mail (Gmail): 0 new, 4 already remembered")
    expect(google.apiCalls.filter((call) => !call.authorized).length).toBe(unauthorized + 1)
    expect(refreshes()).toBe(before + 2)

    // The renewed tokens were sealed back (behind the call): the row changed, and holds none of them in the clear.
    await expect
      .poll(async () => (await secretRows()).find((candidate) => candidate.beingId === owner.being.id)!.secret)
      .not.toBe(sealedBefore)
    const row = (await secretRows()).find((candidate) => candidate.beingId === owner.being.id)!
    expect(row.secret).toMatch(/^nv2\./)
    for (const secret of secrets()) expect(row.secret).not.toContain(secret)
  })

  it("reads and sends through the being's own mailbox: email.read and email.send say via connection", async () => {
    const read = await run(
      owner.client.api.studioSkills.invokeSkill({
        payload: { name: "email.read", input: { limit: 2, snippetChars: 20 } }
      })
    )
    expect(read).toMatchObject({
      ok: true,
      output: {
        via: "connection",
        mailbox: "INBOX",
        total: 4,
        messages: [
          {
            id: "18c1f0a1b2c3d4e6",
            uid: null,
            from: "ada@example.org",
            subject: "Notes on the engine",
            seen: true,
            snippet: "The engine can weav…"
          },
          { id: "18c1f0a1b2c3d4e5", subject: "The compiler works", seen: false }
        ]
      }
    })
    const sent = await run(
      owner.client.api.studioSkills.invokeSkill({
        payload: {
          name: "email.send",
          input: { to: "grace@example.org", subject: "Über den Compiler", text: "Congratulations!\nAda" }
        }
      })
    )
    expect(sent).toMatchObject({ ok: true, output: { sent: true, to: ["grace@example.org"], via: "connection" } })
    const raw = google.sent.at(-1)!
    expect(raw).toContain("To: grace@example.org")
    expect(raw).toContain("Subject: =?UTF-8?Q?=C3=9Cber_den_Compiler?=")
    expect(raw).toContain("Congratulations!")
  })

  it("sends an approved mail from the being's mailbox, refreshing an expired token inside the approval's transaction", async () => {
    const input = { to: "barbara@example.org", subject: "After a yes", text: "Sent once approved." }
    const outcome = await node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({ name: "email.send", input, beingId: owner.being.id, approved: false })
      )
    )
    const signalId = String(at(outcome, "approval", "signalId"))
    const refreshes = google.tokenCalls.filter((call) => call.grant === "refresh_token").length
    time.advance(2 * 60 * 60_000)
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } })
    )
    expect(at(answered, "actionResult", "output", "output")).toEqual({
      sent: true,
      to: ["barbara@example.org"],
      subject: "After a yes",
      via: "connection"
    })
    expect(google.tokenCalls.filter((call) => call.grant === "refresh_token").length).toBe(refreshes + 1)
    expect(google.sent.at(-1)).toContain("Sent once approved.")
  })

  it("says to connect again when the grant was revoked, and the node's own mail is untouched", async () => {
    google.revokeAccess()
    google.state.refreshTokens.clear()
    const { ended } = await syncMail(owner.client)
    expect(ended.summary).toBe(
      "Could not sync Mail (Gmail): your mail connection could not be renewed: mail_a's token endpoint refused (400 invalid_grant). Connect mail again from your twin."
    )
    expect(await mailStatus(owner.client)).toMatchObject({
      sync: { status: "error", error: expect.stringContaining("Connect mail again") },
      hint: expect.stringContaining("Connect mail again")
    })
    const read = await run(owner.client.api.studioSkills.invokeSkill({ payload: { name: "email.read", input: {} } }))
    expect(read).toMatchObject({ ok: false, error: expect.stringContaining("Connect mail again") })
  })
})

describe("pending consents", () => {
  it("holds at most five per being: a sixth start retires the oldest", async () => {
    const screenOf = async () =>
      (
        await navigate(
          owner.client,
          (
            await navigate(owner.client, `${node.url}/api/connections/mail_a/auth`)
          ).location!
        )
      ).location!
    const oldest = await screenOf()
    const second = await screenOf()
    for (let index = 0; index < 4; index++) await screenOf()
    expect((await navigate(owner.client, oldest)).status).toBe(400)
    expect((await navigate(owner.client, second)).status).toBe(302)
  })
})

describe("a node that cannot connect mail_a", () => {
  let bare: TestNode
  let someone: Registered
  beforeAll(async () => {
    bare = await startNode({
      ...google.settings,
      mailAClientId: Option.none(),
      mailAClientSecret: Option.none(),
      encryptionKey: Option.some(Redacted.make("key"))
    })
    someone = await registerOwner(bare)
  })
  afterAll(() => bare?.close())

  it("says the owner must set the client, and without ENCRYPTION_KEY says to set that, sending nobody to the consent screen", async () => {
    const unconfigured = await navigate(someone.client, `${bare.url}/api/connections/mail_a/auth`)
    expect(unconfigured.status).toBe(409)
    expect(unconfigured.text).toContain("MAIL_A_CLIENT_ID")
    const consents = google.consents.length

    const keyless = await startNode({
      ...google.settings,
      mailAClientId: Option.some(clientId),
      mailAClientSecret: Option.some(Redacted.make(clientSecret)),
      encryptionKey: Option.none()
    })
    try {
      const keylessOwner = await registerOwner(keyless)
      const refused = await navigate(keylessOwner.client, `${keyless.url}/api/connections/mail_a/auth`)
      expect(refused.status).toBe(409)
      expect(refused.text).toContain("set ENCRYPTION_KEY")
    } finally {
      await keyless.close()
    }
    expect(google.consents.length).toBe(consents)
  })
})

describe("what the node printed", () => {
  it("holds no token, code, verifier or client secret", () => {
    const all = printed.join("\n")
    for (const secret of secrets()) expect(all).not.toContain(secret)
  })
})
