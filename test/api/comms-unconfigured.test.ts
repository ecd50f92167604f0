/**
 * The comms skills on a node with no mail server, mailbox or chat tokens: each answers a clear
 * refusal that names the setting to set (never a crash), records nothing, and the node goes on.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"

let node: TestNode
let owner: Registered

beforeAll(async () => {
  node = await startNode({
    smtpUrl: Option.none(),
    imapUrl: Option.none(),
    chatABotToken: Option.none(),
    chatBToken: Option.none()
  })
  owner = await registerOwner(node)
})
afterAll(() => node.close())

describe("mail and chat skills without their settings", () => {
  it("refuse, each naming what to set, and record no activity", async () => {
    for (const [name, input, setting] of [
      ["email.send", { to: "grace@example.org", subject: "Hi", text: "Hello" }, "set SMTP_URL"],
      ["email.read", {}, "set IMAP_URL (imap:// or imaps://user:pass@host:port)"],
      ["chat_a.send", { chatId: 4242, text: "Hello" }, "set CHAT_A_BOT_TOKEN"],
      ["chat_b.send", { channel: "C0123456789", text: "Hello" }, "set CHAT_B_TOKEN"]
    ] as const) {
      const answer = await run(owner.client.api.studioSkills.invokeSkill({ payload: { name, input } }))
      expect(answer, name).toEqual({
        ok: false,
        error: expect.stringContaining(setting),
        durationMs: expect.any(Number)
      })
      expect(answer.error, name).toMatch(new RegExp(`^${name.replace(".", "\\.")}: `))
    }
    expect(await run(owner.client.api.twin.listActivity({ urlParams: { offset: 0 } }))).toEqual([])
    expect((await run(owner.client.api.studioSkills.listSkills())).map((skill) => skill.name)).toEqual(
      expect.arrayContaining(["email.read", "email.send", "chat_a.send", "chat_b.send"])
    )
  })
})
