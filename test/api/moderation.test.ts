/**
 * Moderation over real HTTP: the owner hides a post and it leaves every feed (the square, the
 * square's mood, the citizens' context for the next beat) and open pages are told to drop it
 * (`square.retracted`), shows it again; takes a listing down (out of search, not for sale, and its
 * seller cannot lift it) and restores it through the market's port. Everyone else gets 403.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { listingUpdate, members, sellGenerator } from "./market-support.ts"
import { apiError, firstPage, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

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
    expect((await tab.nextOf("square.retracted")).postId).toBe(rude.id)
    const ambient = await tab.nextOf("ambient")
    expect(ambient.mood).toEqual({ valence: kind.mood.valence, arousal: kind.mood.arousal, label: kind.mood.label })

    const feed = await run(member.client.api.beings.square())
    expect(feed.map((post) => post.id)).toEqual([kind.id])
    const moderated = await run(context.owner.client.api.moderation.listPosts({ urlParams: firstPage }))
    expect(moderated.map((post) => [post.id, post.hiddenAt !== null])).toEqual([
      [rude.id, true],
      [kind.id, false]
    ])

    const shown = await run(context.owner.client.api.moderation.showPost({ path: { id: rude.id } }))
    expect(shown.hiddenAt).toBeNull()
    expect((await run(member.client.api.beings.square())).map((post) => post.id)).toEqual([rude.id, kind.id])
    await tab.close()
  })

  it("refuses a member with 403 and an unknown post with 404, changing nothing", async () => {
    const post = await run(member.client.api.beings.post({ payload: { content: "Still here." } }))
    for (const path of [
      `/api/moderation/posts/${post.id}/hide`,
      `/api/moderation/posts/${post.id}/show`,
      "/api/moderation/listings/l1/pause"
    ]) {
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

describe("taking a listing down", () => {
  it("takes a member's listing out of search and buying, the seller cannot lift it, the owner restores it", async () => {
    const { listing } = await sellGenerator(member.client, "Moderated generator", 5)
    const [buyer] = await members(context.node, context.owner, 1)
    const titles = async () =>
      (await run(buyer!.client.api.market.searchListings({ urlParams: { mine: false, limit: 50, offset: 0 } }))).map(
        (found) => found.title
      )
    expect(await titles()).toContain("Moderated generator")

    const down = await run(context.owner.client.api.moderation.pauseListing({ path: { id: listing.id } }))
    expect([down.id, down.status, down.moderatedAt]).toEqual([listing.id, "active", expect.any(String)])
    expect(await titles()).not.toContain("Moderated generator")
    const listed = await run(context.owner.client.api.moderation.listListings({ urlParams: firstPage }))
    expect(listed.find((found) => found.id === listing.id)?.moderatedAt).toBe(down.moderatedAt)

    const bought = await buyer!.client.raw("POST", `/api/market/listings/${listing.id}/buy`)
    expect([bought.status, apiError(bought).error]).toEqual([409, "listing_moderated"])
    expect((await run(buyer!.client.api.market.wallet())).balance).toBe(100)

    // The seller pausing and resuming their own listing leaves the owner's mark where it is.
    for (const status of ["paused", "active"] as const) {
      await run(
        member.client.api.market.updateListing({
          path: { id: listing.id },
          payload: listingUpdate({
            kind: "generator",
            refId: listing.refId,
            title: listing.title,
            priceCredits: 5,
            status
          })
        })
      )
    }
    const mine = await run(member.client.api.market.searchListings({ urlParams: { mine: true, limit: 50, offset: 0 } }))
    expect(mine.find((found) => found.id === listing.id)).toMatchObject({
      status: "active",
      moderatedAt: down.moderatedAt
    })
    expect(await titles()).not.toContain("Moderated generator")
    const stillRefused = await buyer!.client.raw("POST", `/api/market/listings/${listing.id}/buy`)
    expect(apiError(stillRefused).error).toBe("listing_moderated")

    const restored = await run(context.owner.client.api.moderation.resumeListing({ path: { id: listing.id } }))
    expect([restored.status, restored.moderatedAt]).toEqual(["active", null])
    expect(await titles()).toContain("Moderated generator")
    expect((await run(buyer!.client.api.market.buyListing({ path: { id: listing.id } }))).listingId).toBe(listing.id)

    const answer = await context.owner.client.raw("POST", "/api/moderation/listings/some-listing/pause")
    expect([answer.status, apiError(answer).error]).toEqual([404, "not_found"])
    const refused = await member.client.raw("GET", "/api/moderation/listings")
    expect(refused.status).toBe(403)
  })
})
