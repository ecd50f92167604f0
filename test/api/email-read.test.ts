/**
 * email.read over a real node and a real IMAP server (Dovecot, issue 11): the newest messages of
 * a mailbox with sender, subject, date and snippet, read-only; its limits; a `read_email` twin
 * activity; the server's refusals in plain words that never hold the password.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills } from "../../kernel/extensions/skills.ts"
import { at } from "../support/json.ts"
import { LiveTab } from "../support/live.ts"
import { type Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { ImapServer } from "../support/imap.ts"

let imap: ImapServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  imap = await ImapServer.start()
  imap.deliver({
    from: "Grace Hopper <grace@example.org>",
    subject: "Compilers",
    date: new Date("2026-03-01T09:00:00Z"),
    text: "The first one is always the hardest.",
    seen: true
  })
  imap.deliver({
    from: "alan@example.org",
    subject: "Tea at four?",
    date: new Date("2026-03-02T10:30:00Z"),
    html: '<html><body><p>Shall we have <b>tea</b> at four?</p><img src="x.png"></body></html>'
  })
  imap.deliver({
    from: "Barbara Liskov <barbara@example.org>",
    subject: "Substitution",
    date: new Date("2026-03-03T08:15:00Z"),
    text: "Subtypes must be usable\nwherever   their base types are.",
    html: "<p>HTML twin that is not chosen</p>"
  })
  node = await startNode({ imapUrl: Option.some(Redacted.make(imap.url)) })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await imap.stop()
})

const read = (client: Client, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name: "email.read", input } }))

const listed = async (input: Record<string, unknown>) => {
  const answer = await read(owner.client, input)
  expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true })
  return answer.output as {
    mailbox: string
    total: number
    via: string
    messages: Array<{
      id: string
      uid: number | null
      from: string
      subject: string
      date: string | null
      seen: boolean
      snippet: string
    }>
  }
}

describe("email.read", () => {
  it("lists the newest messages first with sender, subject, date and the start of the text, and records a read_email activity", async () => {
    const tab = await LiveTab.open(node, owner.client)
    const answer = await listed({})
    expect(answer).toMatchObject({ mailbox: "INBOX", total: 3, via: "node" })
    expect(answer.messages.every((message) => message.id === String(message.uid))).toBe(true)
    expect(answer.messages.map(({ uid: _uid, id: _id, ...rest }) => rest)).toEqual([
      {
        from: "Barbara Liskov <barbara@example.org>",
        subject: "Substitution",
        date: "2026-03-03T08:15:00.000Z",
        seen: false,
        snippet: "Subtypes must be usable wherever their base types are."
      },
      {
        from: "alan@example.org",
        subject: "Tea at four?",
        date: "2026-03-02T10:30:00.000Z",
        seen: false,
        snippet: "Shall we have tea at four?"
      },
      {
        from: "Grace Hopper <grace@example.org>",
        subject: "Compilers",
        date: "2026-03-01T09:00:00.000Z",
        seen: true,
        snippet: "The first one is always the hardest."
      }
    ])
    const activity = await tab.nextOf("twin.activity", (frame) => frame.kind === "read_email")
    expect(activity.summary).toBe("Read 3 emails from INBOX")
    tab.close()
    expect(await run(owner.client.api.twin.listActivity({ urlParams: { kind: "read_email", offset: 0 } }))).toEqual([
      expect.objectContaining({ beingId: owner.being.id, kind: "read_email", summary: "Read 3 emails from INBOX" })
    ])
  })

  it("reads without marking anything seen, keeps to its limits, and filters to unseen mail", async () => {
    const unseen = await listed({ unseenOnly: true })
    expect(unseen.messages.map((message) => message.subject)).toEqual(["Substitution", "Tea at four?"])
    const newest = await listed({ limit: 1, snippetChars: 12 })
    expect(newest.messages).toEqual([expect.objectContaining({ subject: "Substitution", snippet: "Subtypes mu…" })])
    const headersOnly = await listed({ limit: 2, snippetChars: 0 })
    expect(headersOnly.messages.map((message) => message.snippet)).toEqual(["", ""])
    expect((await listed({ unseenOnly: true })).messages).toHaveLength(2)
  })

  it("is not world-acting: an agent's call runs without asking", async () => {
    const outcome = await node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({ name: "email.read", input: { limit: 1 }, beingId: owner.being.id, approved: false })
      )
    )
    expect(outcome).toMatchObject({
      ok: true,
      output: { total: 3, messages: [expect.objectContaining({ subject: "Substitution" })] }
    })
  })

  it("refuses input out of bounds and a mailbox the server does not have", async () => {
    for (const [input, words] of [
      [{ limit: 0 }, "limit"],
      [{ limit: 51 }, "limit"],
      [{ snippetChars: 5000 }, "snippetChars"],
      [{ mailbox: " " }, "a mailbox name"],
      [{ mailbox: "INBOX\r\nA1 LOGOUT" }, "a mailbox name"],
      [{ folder: "INBOX" }, "folder"]
    ] as const) {
      const answer = await read(owner.client, input)
      expect(answer, JSON.stringify(input)).toMatchObject({ ok: false, error: expect.stringContaining(words) })
    }
    expect(await read(owner.client, { mailbox: "Archive" })).toMatchObject({
      ok: false,
      error: 'email.read: there is no mailbox "Archive" on the IMAP server.'
    })
  })

  it("is listed with its schemas as a skill of the email family that does not act on the world", async () => {
    const skills = await run(owner.client.api.studioSkills.listSkills())
    const skill = skills.find((entry) => entry.name === "email.read")
    expect(skill).toMatchObject({ family: "email", worldActing: false, pluginId: "@svc/email" })
    expect(at(skill?.inputSchema, "properties", "limit")).toMatchObject({ default: 10 })
    expect(at(skill?.outputSchema, "required")).toEqual(["mailbox", "total", "messages", "via"])
  })
})

describe("email.read with a wrong password", () => {
  let wrong: TestNode
  let person: Registered
  beforeAll(async () => {
    wrong = await startNode({
      imapUrl: Option.some(Redacted.make(`imap://${imap.user}:not-the-pass-word@127.0.0.1:${imap.port}`))
    })
    person = await registerOwner(wrong)
  })
  afterAll(() => wrong.close())

  it("says the server refused the login, without the password, and records nothing", async () => {
    const answer = await read(person.client, {})
    expect(answer).toMatchObject({
      ok: false,
      error: expect.stringContaining(`the IMAP server at 127.0.0.1:${imap.port} refused the login`)
    })
    expect(JSON.stringify(answer)).not.toContain("not-the-pass-word")
    expect(await run(person.client.api.twin.listActivity({ urlParams: { offset: 0 } }))).toEqual([])
  })
})
