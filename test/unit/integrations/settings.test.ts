/**
 * The comms settings as the node reads them from the environment: passwords and tokens held
 * redacted (what a log or an answer would print of them is `<redacted>`), the API bases defaulted
 * to the public services, and a malformed value stopping the node with a message that does not
 * repeat it.
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { inspect } from "node:util"
import { describe, expect, it } from "vitest"
import { integrationSettingsConfig } from "../../../extensions/comms/settings.ts"

const read = (env: Record<string, string>) =>
  Effect.runSync(
    Effect.either(
      Effect.withConfigProvider(integrationSettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))
    )
  )

describe("the comms settings", () => {
  it("hold the IMAP password and both tokens redacted, and default the API bases", () => {
    const settings = read({
      IMAP_URL: "imaps://ada:hunter2@mail.example.org:993",
      CHAT_A_BOT_TOKEN: "123:bot-secret",
      CHAT_B_TOKEN: "xoxb-secret"
    })
    expect(Either.isRight(settings)).toBe(true)
    if (Either.isLeft(settings)) return
    const printed = [
      JSON.stringify(settings.right),
      inspect(settings.right, { depth: 5 }),
      String(Option.getOrThrow(settings.right.imapUrl))
    ].join("\n")
    for (const secret of ["hunter2", "bot-secret", "xoxb-secret"]) expect(printed).not.toContain(secret)
    expect(Redacted.value(Option.getOrThrow(settings.right.chatABotToken))).toBe("123:bot-secret")
    expect(settings.right).toMatchObject({
      chatAApiUrl: "https://api.telegram.org",
      chatBApiUrl: "https://slack.com/api"
    })
  })

  it("leave each unset when blank", () => {
    const settings = read({ IMAP_URL: " ", CHAT_A_BOT_TOKEN: "", CHAT_B_TOKEN: "" })
    expect(settings).toEqual(
      Either.right(
        expect.objectContaining({ imapUrl: Option.none(), chatABotToken: Option.none(), chatBToken: Option.none() })
      )
    )
  })

  it("refuse a malformed IMAP_URL or API base at start, without repeating the value", () => {
    for (const [env, words] of [
      [{ IMAP_URL: "pop3://ada:hunter2@mail.example.org" }, "IMAP_URL must start imap:// or imaps://"],
      [{ IMAP_URL: "imap://mail.example.org" }, "IMAP_URL must name a user and a host"],
      [{ IMAP_URL: "hunter2@mail.example.org" }, "IMAP_URL is not a URL"],
      [{ CHAT_A_API_URL: "ftp://bots.example.org" }, "CHAT_A_API_URL must be an http or https URL"],
      [{ CHAT_B_API_URL: "slack" }, "CHAT_B_API_URL must be an http or https URL"]
    ] as const) {
      const settings = read(env)
      expect(Either.isLeft(settings), JSON.stringify(env)).toBe(true)
      const message = String(Either.isLeft(settings) ? settings.left : "")
      expect(message).toContain(words)
      expect(message).not.toContain("hunter2")
    }
  })
})
