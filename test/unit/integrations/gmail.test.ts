/**
 * The Gmail REST calls mail_a makes, against the loopback Google (test/support/google.ts): a
 * message's text from its text/plain part, else its HTML part as text (attachments left out), its
 * headers and unread label; a refused token is its own error so the caller can refresh; a sent
 * message is RFC 2822 with its headers encoded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getMessage, GmailUnauthorized, listMessages, sendGmail } from "../../../extensions/comms/mail-a/gmail.ts"
import { type FakeGoogle, startGoogle } from "../../support/google.ts"

let google: FakeGoogle
const token = "ya29.unit-test"

beforeAll(async () => {
  google = await startGoogle()
  google.state.liveAccess.add(token)
  google.state.mailbox = [
    {
      id: "a1",
      from: "News <news@example.org>",
      subject: "Weekly",
      date: "2026-11-20T09:00:00Z",
      text: "",
      html: '<h1>Hello</h1><p>Read <a href="https://example.org">this</a>.<img src=x></p>',
      unread: true
    },
    { id: "a0", from: "grace@example.org", subject: "Plain", date: "2026-11-19T09:00:00Z", text: "Just text." }
  ]
})
afterAll(() => google.close())

describe("the Gmail API as mail_a calls it", () => {
  it("reads a message's text from its HTML part when it has no plain one, with its headers and unread label", async () => {
    const api = google.settings.mailAApiUrl
    expect(await listMessages(api, token, { q: "", label: "INBOX", max: 10 })).toEqual({ ids: ["a1", "a0"], total: 2 })
    expect(await getMessage(api, token, "a1")).toMatchObject({
      id: "a1",
      from: "News <news@example.org>",
      subject: "Weekly",
      date: "2026-11-20T09:00:00.000Z",
      unread: true,
      text: "HELLO\n\nRead this."
    })
    expect(await getMessage(api, token, "a0")).toMatchObject({ text: "Just text.", unread: false })
  })

  it("answers a refused token with GmailUnauthorized, naming no token", async () => {
    const refused = await getMessage(google.settings.mailAApiUrl, "ya29.stale", "a0").catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(GmailUnauthorized)
    expect(String(refused)).not.toContain("ya29")
  })

  it("sends RFC 2822 with the subject encoded", async () => {
    expect(
      await sendGmail(google.settings.mailAApiUrl, token, {
        to: ["a@example.org", "b@example.org"],
        subject: "Grüße",
        text: "Hallo"
      })
    ).toEqual({ id: "sent-1" })
    expect(google.sent[0]).toMatch(/^To: a@example.org, b@example.org$/m)
    expect(google.sent[0]).toMatch(/^Subject: =\?UTF-8\?Q\?Gr=C3=BC=C3=9Fe\?=$/m)
    expect(google.sent[0]).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m)
  })
})
