import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import { Client, firstPage, nodeWithOwner, refused, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const tricky = [
  { email: "quotes@example.org", name: 'Ada "the Countess" Lovelace', why: 'Because, frankly, "why not"' },
  { email: "lines@example.org", name: "Grace\nHopper", why: "line one\r\nline two, with a comma" },
  { email: "returns@example.org", name: "Carriage\rReturn", why: "lone\nfeed" },
  { email: "formula@example.org", name: '=HYPERLINK("http://evil")', why: "+1 and -1 and @SUM(A1)" },
  { email: "plain@example.org", name: "Alan Turing", why: "" }
]

describe("waitlist", () => {
  it("is public: anyone joins with Ok, joining twice keeps one row", async () => {
    for (const entry of tricky) {
      const answer = await run(new Client(context.node.url).api.authPublic.joinWaitlist({ payload: entry }))
      expect(answer).toEqual({ ok: true })
    }
    const again = await run(
      new Client(context.node.url).api.authPublic.joinWaitlist({ payload: { ...tricky[4]!, name: "Someone else" } })
    )
    expect(again).toEqual({ ok: true })
    const list = await run(context.owner.client.api.auth.listWaitlist({ urlParams: firstPage }))
    expect(list).toHaveLength(tricky.length)
    expect(list.find((row) => row.email === "plain@example.org")?.name).toBe("Alan Turing")
  })

  it("refuses a bad entry with 400 and stores nothing", async () => {
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    const answer = await new Client(context.node.url).raw("POST", "/api/auth/waitlist", {
      email: "nope",
      name: "x",
      why: "y"
    })
    expect(answer.status).toBe(400)
    const tooLong = await new Client(context.node.url).raw("POST", "/api/auth/waitlist", {
      email: "long@example.org",
      name: "x".repeat(500),
      why: ""
    })
    expect(tooLong.status).toBe(400)
    expect(await run(context.owner.client.api.auth.listWaitlist({ urlParams: firstPage }))).toHaveLength(tricky.length)
  })

  it("is read by the owner only", async () => {
    const member = await registerMember(context.node, context.owner.client)
    expect((await refused(member.client.api.auth.listWaitlist({ urlParams: firstPage }))).status).toBe(403)
    expect((await refused(member.client.api.auth.downloadWaitlist())).status).toBe(403)
    expect((await refused(new Client(context.node.url).api.auth.downloadWaitlist())).status).toBe(401)
  })

  it("downloads as RFC 4180 CSV that a standard parser reads back to what went in, formulas neutralised", async () => {
    // A file download: its headers are the point, so it is read raw.
    const answer = await context.owner.client.raw("GET", "/api/auth/waitlist.csv")
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toMatch(/^text\/csv/)
    expect(answer.headers["content-disposition"]).toMatch(/^attachment; filename="waitlist.csv"/)
    expect(answer.text).toMatch(/^email,name,why,createdAt\r\n/)
    // Read as strictly as Python's csv module: an unquoted CR or LF ends a record.
    const rows: Record<string, string>[] = parse(answer.text, { columns: true, record_delimiter: ["\r\n", "\n", "\r"] })
    const neutral = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value)
    expect(rows.map(({ email, name, why }) => ({ email, name, why }))).toEqual(
      [...tricky].map((entry) => ({ email: entry.email, name: neutral(entry.name), why: neutral(entry.why) }))
    )
    expect(rows.every((row) => !Number.isNaN(Date.parse(row.createdAt)))).toBe(true)
  })
})
