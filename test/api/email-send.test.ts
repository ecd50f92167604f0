/**
 * email.send over a real node and a real SMTP server (issue 11): an approved send arrives with
 * its subject and body and leaves a `sent` twin activity; an unapproved one waits for the owner's
 * decision and 'Do it' sends it; bad input is refused and nothing is sent.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills } from "../../kernel/extensions/skills.ts"
import { at } from "../support/json.ts"
import { LiveTab } from "../support/live.ts"
import { type Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { SmtpServer } from "../support/smtp.ts"

let smtp: SmtpServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  smtp = await SmtpServer.start()
  node = await startNode({ smtpUrl: Option.some(Redacted.make(smtp.url)), mailFrom: "node@example.org" })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  smtp.stop()
})

const send = (client: Client, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name: "email.send", input } }))

describe("email.send", () => {
  it("sends an approved mail through SMTP_URL, answers what it sent and records a sent activity", async () => {
    const tab = await LiveTab.open(node, owner.client)
    const answer = await send(owner.client, {
      to: ["grace@example.org", "alan@example.org"],
      subject: "Lunch on Friday",
      text: "Shall we meet at noon?\nAda"
    })
    expect(answer, JSON.stringify(answer)).toMatchObject({
      ok: true,
      output: { sent: true, to: ["grace@example.org", "alan@example.org"], subject: "Lunch on Friday" }
    })
    const [mail] = await smtp.waitFor("grace@example.org")
    expect(mail).toMatchObject({ subject: "Lunch on Friday" })
    expect(mail?.to).toContain("alan@example.org")
    expect(mail?.body).toContain("Shall we meet at noon?")

    const activity = await tab.nextOf("twin.activity", (frame) => frame.kind === "sent")
    expect(activity.summary).toBe('Sent an email to grace@example.org, alan@example.org: "Lunch on Friday"')
    tab.close()
    const listed = await run(owner.client.api.twin.listActivity({ urlParams: { kind: "sent", offset: 0 } }))
    expect(listed).toEqual([
      expect.objectContaining({ beingId: owner.being.id, kind: "sent", summary: activity.summary })
    ])
  })

  it("is world-acting: an unapproved call waits for the owner's decision and sends nothing; 'Do it' sends it", async () => {
    const input = { to: "barbara@example.org", subject: "Approved mail", text: "Only after a yes." }
    const outcome = await node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({ name: "email.send", input, beingId: owner.being.id, approved: false })
      )
    )
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining("approval"),
      approval: { status: "waiting", delivered: true }
    })
    expect(smtp.messages().some((mail) => mail.to.includes("barbara@example.org"))).toBe(false)

    const signalId = String(at(outcome, "approval", "signalId"))
    const signal = (
      await run(owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    ).find((open) => open.id === signalId)
    expect(signal).toMatchObject({ kind: "decision", action: { kind: "skill.invoke", skill: "email.send", input } })
    expect(signal?.body).toContain("sends email to other people")
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } })
    )
    expect(at(answered, "actionResult", "output", "output")).toEqual({
      sent: true,
      to: ["barbara@example.org"],
      subject: "Approved mail",
      via: "node"
    })
    const [mail] = await smtp.waitFor("barbara@example.org")
    expect(mail?.body).toContain("Only after a yes.")
  })

  it("refuses what is not a mail, sending nothing", async () => {
    const before = smtp.messages().length
    for (const [input, words] of [
      [{ to: "not an address", subject: "Hi", text: "x" }, "an email address"],
      [{ to: [], subject: "Hi", text: "x" }, "to"],
      [{ to: Array.from({ length: 21 }, (_, n) => `p${n}@example.org`), subject: "Hi", text: "x" }, "to"],
      [{ to: "ada@example.org", subject: "Hi\r\nBcc: eve@example.org", text: "x" }, "one line"],
      [{ to: "ada@example.org", subject: " ", text: "x" }, "a subject"],
      [{ to: "ada@example.org", subject: "Hi", text: "" }, "some text"],
      [{ to: "ada@example.org", subject: "Hi", text: "x", bcc: "eve@example.org" }, "bcc"]
    ] as const) {
      const answer = await send(owner.client, input)
      expect(answer, JSON.stringify(input).slice(0, 80)).toMatchObject({
        ok: false,
        error: expect.stringContaining(words)
      })
    }
    expect(smtp.messages().length).toBe(before)
  })

  it("is listed with its schemas as a world-acting skill of the email family", async () => {
    const skills = await run(owner.client.api.studioSkills.listSkills())
    const skill = skills.find((listed) => listed.name === "email.send")
    expect(skill).toMatchObject({ family: "email", worldActing: true, pluginId: "@svc/email" })
    expect(at(skill?.inputSchema, "required")).toEqual(["to", "subject", "text"])
    expect(at(skill?.outputSchema, "required")).toEqual(["sent", "to", "subject", "via"])
  })
})
