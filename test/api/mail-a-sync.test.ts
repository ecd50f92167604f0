/**
 * Syncing mail_a over a real node and a loopback Google (test/support/google.ts), the owner
 * connected through the consent screen first: recent messages remembered once, the tokens
 * refreshed when they expire or the API answers 401, mail read and sent through the being's own
 * mailbox, a revoked grant answered with what to do, and no secret in any line the node logs.
 */
import * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Skills } from "../../kernel/extensions/skills.ts"
import { at } from "../support/json.ts"
import { clientId, clientSecret } from "../support/google.ts"
import { LiveTab } from "../support/live.ts"
import { type Client, refused, registerMember, run } from "../support/node.ts"
import { consent, mailANode, nothingSecretPrinted, secretRows, secrets } from "./mail-a-support.ts"

const context = mailANode()
beforeAll(() => consent(context, context.owner.client))

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
  const tab = await LiveTab.open(context.node, client)
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
    // A being that never connected:
    const third = await registerMember(context.node, context.owner.client)
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
    context.google.state.mailbox = [...mailbox]
    const first = await syncMail(context.owner.client)
    expect(first.ended.summary).toBe("Synced Mail (Gmail): 3 new, 0 already remembered")
    const status = await mailStatus(context.owner.client)
    expect(status).toMatchObject({
      configured: true,
      connected: true,
      label: "ada@gmail.example",
      sync: { status: "done", detail: { items: 3, remembered: 3, known: 0 } },
      hint: null
    })
    expect(status?.lastSyncAt).not.toBeNull()

    const found = await run(
      context.owner.client.api.twin.searchMemories({ urlParams: { q: "tea Thursday", offset: 0 } })
    )
    expect(found[0]).toMatchObject({ kind: "episode", source: "mail_a:18c1f0a1b2c3d4e4", tags: ["mail_a"] })
    expect(found[0]!.content).toContain("Tea on Thursday?")
    expect(found[0]!.content).toContain("From: alan@example.org")
    expect(found[0]!.content).toContain("Shall we have tea at four on Thursday?")
    const listed = context.google.apiCalls.filter((call) => call.path === "/gmail/v1/users/me/messages")
    expect(listed.length).toBeGreaterThan(0)

    context.google.state.mailbox = [
      {
        id: "18c1f0a1b2c3d4e6",
        from: "ada@example.org",
        subject: "Notes on the engine",
        date: "2026-11-21T10:00:00Z",
        text: "The engine can weave algebraic patterns."
      },
      ...mailbox
    ]
    const second = await syncMail(context.owner.client)
    expect(second.ended.summary).toBe("Synced Mail (Gmail): 1 new, 3 already remembered")
    // Each new message (subject and text) waits for the learning loop once; no cheap tier here, so it stays queued.
    expect(await run(context.owner.client.api.twin.getLearning())).toMatchObject({ queued: 4 })
    const all = await run(context.owner.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))
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
    const refreshes = () => context.google.tokenCalls.filter((call) => call.grant === "refresh_token").length
    const before = refreshes()
    const sealedBefore = (await secretRows(context)).find(
      (candidate) => candidate.beingId === context.owner.being.id
    )!.secret
    context.time.advance(2 * 60 * 60_000)
    await syncMail(context.owner.client)
    expect(refreshes()).toBe(before + 1)
    expect(context.google.tokenCalls.at(-1)!.form).toMatchObject({ client_id: clientId, client_secret: clientSecret })
    expect((await mailStatus(context.owner.client))?.sync.status).toBe("done")

    context.google.revokeAccess()
    const unauthorized = context.google.apiCalls.filter((call) => !call.authorized).length
    expect((await syncMail(context.owner.client)).ended.summary).toBe(
      "Synced Mail (Gmail): 0 new, 4 already remembered"
    )
    expect(context.google.apiCalls.filter((call) => !call.authorized).length).toBe(unauthorized + 1)
    expect(refreshes()).toBe(before + 2)

    // The renewed tokens were sealed back (behind the call): the row changed, and holds none of them in the clear.
    await expect
      .poll(
        async () =>
          (await secretRows(context)).find((candidate) => candidate.beingId === context.owner.being.id)!.secret
      )
      .not.toBe(sealedBefore)
    const row = (await secretRows(context)).find((candidate) => candidate.beingId === context.owner.being.id)!
    expect(row.secret).toMatch(/^nv2\./)
    for (const secret of secrets(context)) expect(row.secret).not.toContain(secret)
  })

  it("reads and sends through the being's own mailbox: email.read and email.send say via connection", async () => {
    const read = await run(
      context.owner.client.api.studioSkills.invokeSkill({
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
      context.owner.client.api.studioSkills.invokeSkill({
        payload: {
          name: "email.send",
          input: { to: "grace@example.org", subject: "Über den Compiler", text: "Congratulations!\nAda" }
        }
      })
    )
    expect(sent).toMatchObject({ ok: true, output: { sent: true, to: ["grace@example.org"], via: "connection" } })
    const raw = context.google.sent.at(-1)!
    expect(raw).toContain("To: grace@example.org")
    expect(raw).toContain("Subject: =?UTF-8?Q?=C3=9Cber_den_Compiler?=")
    expect(raw).toContain("Congratulations!")
  })

  it("sends an approved mail from the being's mailbox, refreshing an expired token inside the approval's transaction", async () => {
    const input = { to: "barbara@example.org", subject: "After a yes", text: "Sent once approved." }
    const outcome = await context.node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({ name: "email.send", input, beingId: context.owner.being.id, approved: false })
      )
    )
    const signalId = String(at(outcome, "approval", "signalId"))
    const refreshes = context.google.tokenCalls.filter((call) => call.grant === "refresh_token").length
    context.time.advance(2 * 60 * 60_000)
    const answered = await run(
      context.owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } })
    )
    expect(at(answered, "actionResult", "output", "output")).toEqual({
      sent: true,
      to: ["barbara@example.org"],
      subject: "After a yes",
      via: "connection"
    })
    expect(context.google.tokenCalls.filter((call) => call.grant === "refresh_token").length).toBe(refreshes + 1)
    expect(context.google.sent.at(-1)).toContain("Sent once approved.")
  })

  it("says to connect again when the grant was revoked, and the node's own mail is untouched", async () => {
    context.google.revokeAccess()
    context.google.state.refreshTokens.clear()
    const { ended } = await syncMail(context.owner.client)
    expect(ended.summary).toBe(
      "Could not sync Mail (Gmail): your mail connection could not be renewed: mail_a's token endpoint refused (400 invalid_grant). Connect mail again from your twin."
    )
    expect(await mailStatus(context.owner.client)).toMatchObject({
      sync: { status: "error", error: expect.stringContaining("Connect mail again") },
      hint: expect.stringContaining("Connect mail again")
    })
    const read = await run(
      context.owner.client.api.studioSkills.invokeSkill({ payload: { name: "email.read", input: {} } })
    )
    expect(read).toMatchObject({ ok: false, error: expect.stringContaining("Connect mail again") })
  })
})

nothingSecretPrinted(context)
