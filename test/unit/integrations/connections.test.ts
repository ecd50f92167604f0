/**
 * The integrations adapter prefers the calling being's own connection to the node's setting
 * (COVERAGE: email.read, chat_a.send and chat_b.send), through the BeingConnections port the
 * connections feature will bind: a being with a connection uses its own credential and is told
 * `via: "connection"`; anyone else, and a call outside any being, gets the node's.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ActivityLog } from "../../../extensions/twin/contract/activity-log.ts"
import type { TwinActivity } from "../../../extensions/twin/contract/records.ts"
import { integrationsAdapterFactory } from "../../../extensions/comms/adapter.ts"
import type { CapabilityRefused } from "../../../kernel/extensions/capability-refused.ts"
import { BeingConnections, type ConnectedProvider } from "../../../extensions/comms/connections.ts"
import { MailAAccounts } from "../../../extensions/comms/mail-a/accounts.ts"
import { integrationSettingsLayer } from "../../../extensions/comms/settings.ts"
import { MailerTest } from "../../../extensions/mail/mailer.ts"
import { noCallScope } from "../../../kernel/extensions/context.ts"
import { startSlack, startTelegram } from "../../support/chat-servers.ts"
import { ImapServer } from "../../support/imap.ts"

const adaBot = "777:ada-own-bot"
const nodeBot = "111:node-bot"
const adaSlack = "xoxp-ada-own"
const nodeSlack = "xoxb-node"

let telegram: Awaited<ReturnType<typeof startTelegram>>
let slack: Awaited<ReturnType<typeof startSlack>>
let imap: ImapServer
const recorded: Array<Pick<TwinActivity, "beingId" | "kind" | "summary">> = []

beforeAll(async () => {
  telegram = await startTelegram(adaBot)
  slack = await startSlack(adaSlack)
  imap = await ImapServer.start()
  imap.deliver({
    from: "grace@example.org",
    subject: "Only Ada's mailbox has this",
    date: new Date("2026-01-01T00:00:00Z"),
    text: "hi"
  })
})
afterAll(async () => {
  await telegram.close()
  await slack.close()
  await imap.stop()
})

/** Ada connected all three; nobody else connected anything. */
const own: Record<ConnectedProvider, () => string> = {
  chat_a: () => adaBot,
  chat_b: () => adaSlack,
  mail_a: () => imap.url
}

const adapterFor = (beingId: string | null) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const factory = yield* integrationsAdapterFactory
      return factory(null, { ...noCallScope, beingId })
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          MailerTest,
          MailAAccounts.none,
          integrationSettingsLayer({
            imapUrl: Option.some(Redacted.make(`imap://${imap.user}:wrong-pass@127.0.0.1:${imap.port}`)),
            chatAApiUrl: telegram.url,
            chatABotToken: Option.some(Redacted.make(nodeBot)),
            chatBApiUrl: slack.url,
            chatBToken: Option.some(Redacted.make(nodeSlack))
          }),
          Layer.succeed(BeingConnections, {
            credential: (being, provider) =>
              Effect.succeed(being === "ada" ? Option.some(Redacted.make(own[provider]())) : Option.none())
          }),
          Layer.succeed(ActivityLog, {
            record: (being, kind, summary) =>
              Effect.sync(() => {
                recorded.push({ beingId: being, kind, summary })
                return { id: String(recorded.length), beingId: being, kind, summary, at: new Date().toISOString() }
              })
          })
        )
      )
    )
  )

/** An adapter's call as a plugin in an isolate awaits it: a refusal rejects with its sentence. */
const promised = <A>(call: Effect.Effect<A, CapabilityRefused>) =>
  Effect.runPromise(Effect.mapError(call, (refusal) => new Error(refusal.message)))

describe("a being's own connection before the node's setting", () => {
  it("sends chat_a and chat_b with the being's own tokens, and says so", async () => {
    const ada = await adapterFor("ada")
    await expect(promised(ada.chatA.send({ chatId: "4242", text: "from my own bot" }))).resolves.toMatchObject({
      chatId: "4242",
      via: "connection"
    })
    expect(telegram.received.at(-1)?.path).toBe(`/bot${adaBot}/sendMessage`)
    await expect(
      promised(ada.chatB.send({ channel: "C0123456789", text: "from my own workspace" }))
    ).resolves.toMatchObject({
      via: "connection"
    })
    expect(slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${adaSlack}`)
  })

  it("reads the being's own mailbox", async () => {
    const read = await promised(
      (await adapterFor("ada")).email.read({ mailbox: "INBOX", limit: 5, unseenOnly: false, snippetChars: 10 })
    )
    expect(read).toMatchObject({
      via: "connection",
      total: 1,
      messages: [expect.objectContaining({ subject: "Only Ada's mailbox has this" })]
    })
  })

  it("uses the node's setting for a being without a connection, and for a call outside any being", async () => {
    for (const beingId of ["bob", null]) {
      const other = await adapterFor(beingId)
      // The test servers know only Ada's credentials: the node's are refused, which shows they were the ones sent.
      await expect(promised(other.chatA.send({ chatId: "4242", text: "x" }))).rejects.toThrow(
        "chat_a (Telegram Bot API) refused the message: Unauthorized (401)."
      )
      expect(telegram.received.at(-1)?.path).toBe(`/bot${nodeBot}/sendMessage`)
      await expect(promised(other.chatB.send({ channel: "C0123456789", text: "x" }))).rejects.toThrow(
        "refused the message: invalid_auth."
      )
      expect(slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${nodeSlack}`)
      await expect(
        promised(other.email.read({ mailbox: "INBOX", limit: 5, unseenOnly: false, snippetChars: 0 }))
      ).rejects.toThrow("refused the login")
    }
  })

  it("records what a being did in its own twin, and nothing for a call outside any being", async () => {
    expect(recorded.filter((entry) => entry.beingId !== "ada")).toEqual([])
    expect(recorded.map((entry) => entry.summary)).toEqual(
      expect.arrayContaining([
        "Sent a chat_a message to 4242",
        "Sent a chat_b message to C0123456789",
        "Read 1 email from INBOX"
      ])
    )
  })
})
