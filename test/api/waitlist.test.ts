import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import {Client, nodeWithOwner, registerMember } from "../support/node.ts"

const context = nodeWithOwner()

const tricky = [
  { email: "quotes@example.org", name: 'Ada "the Countess" Lovelace', why: "Because, frankly, \"why not\"" },
  { email: "lines@example.org", name: "Grace\nHopper", why: "line one\r\nline two, with a comma" },
  { email: "returns@example.org", name: "Carriage\rReturn", why: "lone\nfeed" },
  { email: "formula@example.org", name: "=HYPERLINK(\"http://evil\")", why: "+1 and -1 and @SUM(A1)" },
  { email: "plain@example.org", name: "Alan Turing", why: "" }
]

describe("waitlist", () => {
  it("is public: anyone joins with Ok, joining twice keeps one row", async () => {
    for (const entry of tricky) {
      const answer = await new Client(context.node.url).post("/api/auth/waitlist", entry)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ ok: true })
    }
    const again = await new Client(context.node.url).post("/api/auth/waitlist", { ...tricky[4], name: "Someone else" })
    expect(again.body).toEqual({ ok: true })
    const list = await context.owner.client.get("/api/auth/waitlist")
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(tricky.length)
    expect(list.body.find((row: { email: string }) => row.email === "plain@example.org").name).toBe("Alan Turing")
  })

  it("refuses a bad entry with 400 and stores nothing", async () => {
    const answer = await new Client(context.node.url).post("/api/auth/waitlist", { email: "nope", name: "x", why: "y" })
    expect(answer.status).toBe(400)
    const tooLong = await new Client(context.node.url).post("/api/auth/waitlist", { email: "long@example.org", name: "x".repeat(500), why: "" })
    expect(tooLong.status).toBe(400)
    expect((await context.owner.client.get("/api/auth/waitlist")).body).toHaveLength(tricky.length)
  })

  it("is read by the owner only", async () => {
    const member = await registerMember(context.node, context.owner.client)
    expect((await member.client.get("/api/auth/waitlist")).status).toBe(403)
    expect((await member.client.get("/api/auth/waitlist.csv")).status).toBe(403)
    expect((await new Client(context.node.url).get("/api/auth/waitlist.csv")).status).toBe(401)
  })

  it("downloads as RFC 4180 CSV that a standard parser reads back to what went in, formulas neutralised", async () => {
    const answer = await context.owner.client.get("/api/auth/waitlist.csv")
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="waitlist.csv"/)
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
