/**
 * Beings over real HTTP: the list (every kind, no addresses, presence, citizens' personas), one being with its soul
 * (the prompt
 * stripped unless self or owner), presence from a real socket, a citizen's persona; PATCH
 * /api/beings/me through the beings repository, seen by /api/auth/me at once (the session cache
 * hears of it), and its refusals.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { apiError, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

describe("GET /api/beings", () => {
  it("lists people and citizens alike, without anyone's address, each online or not, a citizen with its persona", async () => {
    const tab = await LiveTab.open(context.node, member.client)
    const answer = await member.client.raw("GET", "/api/beings")
    await tab.close()
    expect(answer.status).toBe(200)
    const beings = answer.body as Array<Record<string, unknown>>
    expect(beings.map((being) => being.id)).toEqual(
      expect.arrayContaining([context.owner.being.id, member.being.id, "citizen-lead"])
    )
    expect(beings.find((being) => being.id === member.being.id)).toEqual({
      id: member.being.id,
      kind: "human",
      handle: member.being.handle,
      displayName: member.being.displayName,
      isOwner: false,
      createdAt: member.being.createdAt,
      online: true
    })
    expect(beings.find((being) => being.id === context.owner.being.id)).toMatchObject({ online: false })
    expect(beings.find((being) => being.id === "citizen-lead")).toMatchObject({
      kind: "citizen",
      citizen: { role: "lead", avatar: "🧭" }
    })
    expect(JSON.stringify(beings)).not.toContain("@example.org")
  })
})

describe("GET /api/beings/:id", () => {
  it("shows another being's soul without its prompt, and online only while it has a socket", async () => {
    const before = await run(member.client.api.beings.getBeing({ path: { id: context.owner.being.id } }))
    expect(before.online).toBe(false)
    expect(before.soul).toBeDefined()
    expect(before.soul).not.toHaveProperty("systemPrompt")
    expect(before.summary).toContain(before.soul!.purpose)
    const tab = await LiveTab.open(context.node, context.owner.client)
    const during = await run(member.client.api.beings.getBeing({ path: { id: context.owner.being.id } }))
    expect(during.online).toBe(true)
    await tab.close()
  })

  it("keeps the prompt for the being itself and for the owner", async () => {
    const self = await run(member.client.api.beings.getBeing({ path: { id: member.being.id } }))
    expect(self.soul?.systemPrompt).toContain("Rules you always keep")
    const byOwner = await run(context.owner.client.api.beings.getBeing({ path: { id: member.being.id } }))
    expect(byOwner.soul?.systemPrompt).toContain("Rules you always keep")
  })

  it("shows a citizen's persona", async () => {
    const juno = await run(member.client.api.beings.getBeing({ path: { id: "citizen-lead" } }))
    expect(juno).toMatchObject({ kind: "citizen", displayName: "Juno", citizen: { role: "lead", avatar: "🧭" } })
    expect(juno.soul).not.toHaveProperty("systemPrompt")
  })

  it("answers 404 for an unknown id", async () => {
    const answer = await member.client.raw("GET", "/api/beings/nobody-here")
    expect([answer.status, apiError(answer).error]).toEqual([404, "not_found"])
  })
})

describe("PATCH /api/beings/me", () => {
  it("changes one's name and handle, and /api/auth/me shows it at once", async () => {
    await run(member.client.api.auth.me()) // the session is cached now
    const changed = await run(
      member.client.api.beings.patchMe({ payload: { displayName: "Renamed Person", handle: `renamed_${process.pid}` } })
    )
    expect(changed).toMatchObject({
      id: member.being.id,
      displayName: "Renamed Person",
      handle: `renamed_${process.pid}`
    })
    const { being } = await run(member.client.api.auth.me())
    expect(being).toMatchObject({ displayName: "Renamed Person", handle: `renamed_${process.pid}` })
    const soul = await run(member.client.api.souls.recompileSoul({ path: { beingId: member.being.id } }))
    expect(soul.systemPrompt).toContain("You are Renamed Person")
  })

  it("refuses a handle someone holds with 409, a bad handle or an unknown field with 400, and changes nothing", async () => {
    const taken = await member.client.raw("PATCH", "/api/beings/me", {
      handle: context.owner.being.handle,
      displayName: "Thief"
    })
    expect([taken.status, apiError(taken).error]).toEqual([409, "handle_taken"])
    for (const body of [
      { handle: "No Spaces Allowed" },
      { displayName: "" },
      { displayName: "x".repeat(81) },
      { email: "new@example.org" },
      { isOwner: true }
    ]) {
      const answer = await member.client.raw("PATCH", "/api/beings/me", body)
      expect([answer.status, apiError(answer).error]).toEqual([400, "invalid_request"])
    }
    const { being } = await run(member.client.api.auth.me())
    expect(being).toMatchObject({ displayName: "Renamed Person", isOwner: false, email: member.registration.email })
  })
})
