/**
 * Themes over real HTTP: a being sees the node's built-in themes and its own copies, wears one
 * (kept by the node, so every tab and the next visit wear it too), goes back to the device's
 * setting; another being's theme and an unknown id are 404 and change nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import { apiError, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

const tokens = {
  background: "#101010",
  surface: "#1a1a1a",
  text: "#f0f0f0",
  muted: "#aaaaaa",
  accent: "#ff8800",
  danger: "#ff5555",
  border: "#333333",
  focusRing: "#ff8800"
}

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

const ownTheme = (ownerId: string, id: string, name: string) =>
  context.node.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql`INSERT INTO being_themes
    (id, owner_id, name, color_scheme, tokens, created_at) VALUES (${id}, ${ownerId}, ${name}, 'dark', ${JSON.stringify(tokens)},
    '2026-01-01T00:00:00.000Z')`
    )
  )

describe("themes", () => {
  it("lists the built-in themes and the being's own, and wears the chosen one until told otherwise", async () => {
    await ownTheme(member.being.id, "ember-theme", "Ember")
    const first = await run(member.client.api.themes.listThemes())
    expect(first.activeId).toBeNull()
    expect(first.themes.map((theme) => [theme.id, theme.source])).toEqual([
      ["themes.light", "builtin"],
      ["themes.dark", "builtin"],
      ["ember-theme", "owned"]
    ])

    const worn = await run(member.client.api.themes.chooseTheme({ payload: { themeId: "ember-theme" } }))
    expect(worn.activeId).toBe("ember-theme")
    expect((await run(member.client.api.themes.listThemes())).activeId).toBe("ember-theme")
    // One being's choice is theirs alone.
    expect((await run(context.owner.client.api.themes.listThemes())).activeId).toBeNull()

    expect((await run(member.client.api.themes.chooseTheme({ payload: { themeId: "themes.dark" } }))).activeId).toBe(
      "themes.dark"
    )
    expect((await run(member.client.api.themes.chooseTheme({ payload: { themeId: null } }))).activeId).toBeNull()
  })

  it("refuses another being's theme and an unknown one with 404, changing nothing", async () => {
    await ownTheme(context.owner.being.id, "owners-theme", "Owner's")
    await run(member.client.api.themes.chooseTheme({ payload: { themeId: "themes.light" } }))
    for (const themeId of ["owners-theme", "no-such-theme"]) {
      const answer = await member.client.raw("PUT", "/api/themes/active", { themeId })
      expect([answer.status, apiError(answer).error]).toEqual([404, "theme_not_found"])
    }
    expect((await run(member.client.api.themes.listThemes())).activeId).toBe("themes.light")
    expect((await member.client.raw("PUT", "/api/themes/active", { themeId: "themes.dark", extra: 1 })).status).toBe(
      400
    )
  })
})
