/**
 * The twin's profile over real HTTP: the default, partial PATCH, preferences where null removes a key, per being,
 * refusals.
 */
import { describe, expect, it } from "vitest"
import { apiError, nodeWithOwner, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const empty = { facts: [], goals: [], routines: [], preferences: {}, tone: "", timezone: "UTC" }

describe("profile", () => {
  it("reads the default until changed; PATCH changes only the sections given", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const twin = client.api.twin
    expect(await run(twin.getProfile())).toEqual(empty)
    const patched = await run(twin.patchProfile({ payload: { goals: ["Run a marathon"], timezone: "Europe/Paris" } }))
    expect(patched).toEqual({ ...empty, goals: ["Run a marathon"], timezone: "Europe/Paris" })
    expect(await run(twin.patchProfile({ payload: { tone: "warm, brief" } }))).toEqual({
      ...patched,
      tone: "warm, brief"
    })
    expect(await run(twin.getProfile())).toEqual({ ...patched, tone: "warm, brief" })
  })

  it("PATCH /preferences sets keys and removes those given null; the rest of the profile stays", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const twin = client.api.twin
    await run(twin.patchProfile({ payload: { facts: ["Lives in Lyon"] } }))
    await run(twin.patchPreferences({ payload: { coffee: "black", units: "metric", alarms: { weekday: "07:00" } } }))
    const next = await run(twin.patchPreferences({ payload: { coffee: null, units: "imperial", nothing: null } }))
    expect(next).toEqual({
      ...empty,
      facts: ["Lives in Lyon"],
      preferences: { units: "imperial", alarms: { weekday: "07:00" } }
    })
  })

  it("is per being: one being's changes never show in another's", async () => {
    const first = await registerMember(context.node, context.owner.client)
    const second = await registerMember(context.node, context.owner.client)
    await run(first.client.api.twin.patchProfile({ payload: { routines: ["Swim on Mondays"] } }))
    expect(await run(second.client.api.twin.getProfile())).toEqual(empty)
  })

  it("refuses a bad time zone, a bad section, a bad preference key with 400 and changes nothing", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    await run(client.api.twin.patchProfile({ payload: { tone: "plain" } }))
    for (const [path, body] of [
      ["/api/twin/profile", { timezone: "Mars/Olympus_Mons" }],
      ["/api/twin/profile", { facts: "Lives in Lyon" }],
      ["/api/twin/profile", { goals: [""] }],
      ["/api/twin/profile", { tone: "x".repeat(201) }],
      ["/api/twin/profile/preferences", { "has space": 1 }],
      ["/api/twin/profile/preferences", []]
    ] as const) {
      const answer = await client.raw("PATCH", path, body)
      expect({ path, body, status: answer.status, error: apiError(answer).error }).toEqual({
        path,
        body,
        status: 400,
        error: "invalid_request"
      })
    }
    expect(await run(client.api.twin.getProfile())).toEqual({ ...empty, tone: "plain" })
  })

  it("answers 401 without a session", async () => {
    expect((await fetch(`${context.node.url}/api/twin/profile`)).status).toBe(401)
  })
})
