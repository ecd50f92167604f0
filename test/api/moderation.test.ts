/**
 * Moderation over real HTTP: the owner hides a post and it leaves every feed (the square, the
 * square's mood, the citizens' context for the next beat), shows it again; pauses a listing out of
 * search and resumes it through the market's port. Everyone else gets 403.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { sellGenerator } from "./market-support.ts"
import { apiError, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

describe("hiding a post", () => {
  it("takes it out of the square and its mood, keeps it for moderation, and can show it again", async () => {
    const kind = await run(member.client.api.beings.post({ payload: { content: "Lovely, happy day, everyone!" } }))
    const rude = await run(member.client.api.beings.post({ payload: { content: "I hate this awful, stupid place." } }))
    const tab = await LiveTab.open(context.node, member.client)

    const hidden = await run(context.owner.client.api.moderation.hidePost({ path: { id: rude.id } }))
    expect(hidden).toMatchObject({ id: rude.id, hiddenAt: expect.any(String) })
    const ambient = await tab.nextOf("ambient")
    expect(ambient.mood).toEqual({ valence: kind.mood.valence, arousal: kind.mood.arousal, label: kind.mood.label })

    const feed = await run(member.client.api.beings.square())
    expect(feed.map((post) => post.id)).toEqual([kind.id])
    const moderated = await run(context.owner.client.api.moderation.listPosts())
    expect(moderated.map((post) => [post.id, post.hiddenAt !== null])).toEqual([[rude.id, true], [kind.id, false]])

    const shown = await run(context.owner.client.api.moderation.showPost({ path: { id: rude.id } }))
    expect(shown.hiddenAt).toBeNull()
    expect((await run(member.client.api.beings.square())).map((post) => post.id)).toEqual([rude.id, kind.id])
    await tab.close()
  })

  it("refuses a member with 403 and an unknown post with 404, changing nothing", async () => {
    const post = await run(member.client.api.beings.post({ payload: { content: "Still here." } }))
    for (const path of [`/api/moderation/posts/${post.id}/hide`, `/api/moderation/posts/${post.id}/show`, "/api/moderation/listings/l1/pause"]) {
      const answer = await member.client.raw("POST", path)
      expect([answer.status, apiError(answer).error]).toEqual([403, "forbidden"])
    }
    const list = await member.client.raw("GET", "/api/moderation/posts")
    expect(list.status).toBe(403)
    const unknown = await context.owner.client.raw("POST", "/api/moderation/posts/no-such-post/hide")
    expect([unknown.status, apiError(unknown).error]).toEqual([404, "not_found"])
    expect((await run(member.client.api.beings.square()))[0]!.id).toBe(post.id)
  })
})

describe("pausing a listing", () => {
  it("takes a member's listing out of search until the owner resumes it; an unknown listing is 404", async () => {
    const { listing } = await sellGenerator(member.client, "Moderated generator", 5)
    const titles = async () => (await run(member.client.api.market.searchListings({ urlParams: { mine: false, limit: 50 } }))).map((found) => found.title)
    expect(await titles()).toContain("Moderated generator")

    expect(await run(context.owner.client.api.moderation.pauseListing({ path: { id: listing.id } }))).toEqual({ id: listing.id, status: "paused" })
    expect((await run(member.client.api.market.getListing({ path: { id: listing.id } }))).status).toBe("paused")
    expect(await titles()).not.toContain("Moderated generator")

    expect(await run(context.owner.client.api.moderation.resumeListing({ path: { id: listing.id } }))).toEqual({ id: listing.id, status: "active" })
    expect(await titles()).toContain("Moderated generator")

    const answer = await context.owner.client.raw("POST", "/api/moderation/listings/some-listing/pause")
    expect([answer.status, apiError(answer).error]).toEqual([404, "not_found"])
  })
})
