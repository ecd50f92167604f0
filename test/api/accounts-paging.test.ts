/**
 * The owner's access codes, invites and waitlist a page at a time, over real HTTP on a real node:
 * 60 codes minted in two batches (each batch one moment: the code breaks the tie), 55 invites and
 * 55 waitlist entries written as their tables hold them, two to a second; each list read in pages
 * that neither overlap nor leave one out, 50 when no page is named; a page out of bounds is
 * refused and changes nothing; a member is refused as before.
 */
import * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import { AccessCode, InviteEmail, WaitlistRow } from "../../extensions/accounts/contract/records.ts"
import { InvitesRepository } from "../../extensions/accounts/repositories/invites.ts"
import { WaitlistRepository } from "../../extensions/accounts/repositories/waitlist.ts"
import { pagesHoldAll, refusesBadPages } from "../support/paged-lists.ts"
import { nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

const SEEDED = 55

/** The moment of the `index`th seeded row: two to each second from the first of 2026. */
const momentOf = (index: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 2))).toISOString()

const invites = Array.from({ length: SEEDED }, (_, index) => ({
  id: `invite-${String(index).padStart(2, "0")}`,
  email: `friend-${index}@example.org`,
  note: "",
  code: `CODE-${index}`,
  createdBy: "owner",
  createdAt: momentOf(index)
}))

const entries: ReadonlyArray<WaitlistRow> = Array.from({ length: SEEDED }, (_, index) => ({
  email: `waiting-${String(SEEDED - index).padStart(2, "0")}@example.org`,
  name: `Waiting ${index}`,
  why: "to see",
  createdAt: momentOf(index)
}))

beforeAll(async () => {
  const owner = context.owner.client.api.auth
  await run(owner.mintCodes({ payload: { count: 50, note: "first batch" } }))
  await run(owner.mintCodes({ payload: { count: 10, note: "second batch" } }))
  member = await registerMember(context.node, context.owner.client)
  await context.node.runtime.runPromise(
    Effect.gen(function* () {
      const invitesRepository = yield* InvitesRepository
      const waitlist = yield* WaitlistRepository
      yield* Effect.forEach(invites, (invite) => invitesRepository.insert(invite), { discard: true })
      yield* Effect.forEach(entries, (entry) => waitlist.insertIfNew(entry), { discard: true })
    }).pipe(Effect.orDie, Effect.provide([InvitesRepository.Default, WaitlistRepository.Default]))
  )
})

/** Newest first; the code breaks a tie between codes of one moment. */
const newestCodeFirst = (a: AccessCode, b: AccessCode) =>
  b.createdAt.localeCompare(a.createdAt) || (a.code < b.code ? -1 : 1)

describe("GET /api/auth/codes and /api/auth/codes/unused, a page at a time", () => {
  it("answers every code newest first in pages that do not overlap and together hold them all", async () => {
    const owner = context.owner.client
    const all = await pagesHoldAll(owner, AccessCode, "/api/auth/codes", (code) => code.code)
    // The 60 minted, the member's and the owner's bootstrap code.
    expect(all).toHaveLength(62)
    const rows = await run(owner.api.auth.listCodes({ urlParams: { limit: 200, offset: 0 } }))
    expect(rows.map((row) => row.code)).toEqual([...rows].sort(newestCodeFirst).map((row) => row.code))
    const unused = await pagesHoldAll(owner, AccessCode, "/api/auth/codes/unused", (code) => code.code)
    expect(unused).toHaveLength(60)
    expect(unused).toEqual(rows.filter((row) => row.usedBy === null).map((row) => row.code))
  })

  it("refuses a page out of bounds or not a number, and a member reads neither", async () => {
    for (const path of ["/api/auth/codes", "/api/auth/codes/unused"]) {
      await refusesBadPages(context.owner.client, AccessCode, path)
      expect((await member.client.raw("GET", `${path}?limit=10`)).status, path).toBe(403)
    }
  })
})

describe("GET /api/auth/codes/sent, a page at a time", () => {
  it("answers the invites newest first (the id breaks a tie) in pages that together hold them all", async () => {
    const all = await pagesHoldAll(context.owner.client, InviteEmail, "/api/auth/codes/sent", (invite) => invite.id)
    const newestFirst = [...invites]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1))
      .map((invite) => invite.id)
    expect(all).toEqual(newestFirst)
  })

  it("refuses a page out of bounds or not a number, and a member cannot read it", async () => {
    await refusesBadPages(context.owner.client, InviteEmail, "/api/auth/codes/sent")
    expect((await member.client.raw("GET", "/api/auth/codes/sent?limit=10")).status).toBe(403)
  })
})

describe("GET /api/auth/waitlist, a page at a time", () => {
  it("answers the entries oldest first (the address breaks a tie) in pages that together hold them all", async () => {
    const all = await pagesHoldAll(context.owner.client, WaitlistRow, "/api/auth/waitlist", (entry) => entry.email)
    const oldestFirst = [...entries]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.email < b.email ? -1 : 1))
      .map((entry) => entry.email)
    expect(all).toEqual(oldestFirst)
  })

  it("still downloads the whole waitlist as CSV", async () => {
    const csv = await context.owner.client.raw("GET", "/api/auth/waitlist.csv")
    expect(csv.status).toBe(200)
    // The header and one record per entry.
    expect(csv.text.trim().split("\r\n")).toHaveLength(SEEDED + 1)
  })

  it("refuses a page out of bounds or not a number, and a member cannot read it", async () => {
    await refusesBadPages(context.owner.client, WaitlistRow, "/api/auth/waitlist")
    expect((await member.client.raw("GET", "/api/auth/waitlist?limit=10")).status).toBe(403)
  })
})
