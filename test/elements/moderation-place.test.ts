import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/moderation/moderation-place.ts"
import type { ModerationPlace } from "../../ui/places/moderation/moderation-place.ts"
import { byText, fakeNode, findAll, paged, textOf, until } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

describe("<moderation-place>", () => {
  it("gives the owner the posts and the listings to moderate", async () => {
    fakeNode({})
    const el = await fixture<ModerationPlace>(html`<moderation-place .being=${owner}></moderation-place>`)
    expect(el.shadowRoot!.querySelector("moderation-posts")).not.to.equal(null)
    expect(el.shadowRoot!.querySelector("moderation-listings")).not.to.equal(null)
  })

  it("shows the newest 50 posts, the next ones on Show more, and reads them again from the top", async () => {
    const posts = Array.from({ length: 60 }, (_, at) => ({
      id: `post-${at}`,
      threadKind: "square",
      authorId: "b-owner",
      authorName: `Author ${at}`,
      content: `Words ${at}`,
      mood: { valence: 0, arousal: 0.5, label: "calm" },
      createdAt: "2026-01-01T00:00:00.000Z",
      hiddenAt: null
    }))
    const node = fakeNode({
      "GET /api/moderation/posts": paged(posts),
      "GET /api/moderation/listings": paged([])
    })
    const el = await fixture<ModerationPlace>(html`<moderation-place .being=${owner}></moderation-place>`)
    const shown = () => el.shadowRoot!.querySelector("moderation-posts")?.shadowRoot?.querySelectorAll("li") ?? []
    await until(() => shown().length === 50)
    expect(node.to("GET /api/moderation/posts")[0]!.search.get("limit")).to.equal("50")
    byText(el, "button", "Show more posts").click()
    await until(() => shown().length === 60)
    expect(textOf(el)).to.contain("Words 59")
    // Shown again from the top, as many as shown; a page shorter than asked was the last.
    const again = node.to("GET /api/moderation/posts")[1]!.search
    expect([again.get("limit"), again.get("offset")]).to.deep.equal(["100", "0"])
    expect(findAll(el, "button.show-more")).to.have.length(0)
  })

  it("tells anyone else it is the owner's, and asks the node nothing", async () => {
    const node = fakeNode({})
    const el = await fixture<ModerationPlace>(
      html`<moderation-place .being=${{ ...owner, isOwner: false }}></moderation-place>`
    )
    expect(textOf(el)).to.contain("Owner only: moderation is for the owner of this node.")
    expect(el.shadowRoot!.querySelector("moderation-posts")).to.equal(null)
    expect(node.sent).to.have.length(0)
    await expect(el).to.be.accessible()
  })
})
