import { expect, fixture, html } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/places/desktop/desktop-place.ts"
import type { DesktopPlace } from "../../ui/places/desktop/desktop-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { byText, fakeNode, find, held, refusal, type Sent, textOf, until } from "./support/fake-node.ts"
import { owner, project, signal } from "./support/records.ts"

const widgets = "GET /api/desktop/widgets"
const layout = {
  widgets: [
    { id: "w-signals", type: "core.signals", column: 0, order: 0 },
    { id: "w-gone", type: "acme.weather", column: 1, order: 0 }
  ],
  updatedAt: null
}
const routes = (over: Record<string, unknown> = {}) => ({
  [widgets]: { json: layout },
  "GET /api/plugins": { json: [] },
  "GET /api/desktop/signals": { json: [signal()] },
  ...over
})

const make = () => fixture<DesktopPlace>(html`<desktop-place .being=${owner}></desktop-place>`)
const widget = (el: DesktopPlace, id: string) => find(el, `section[data-widget-id="${id}"]`)

describe("<desktop-place>", () => {
  afterEach(() => window.dispatchEvent(new Event("plugins-changed")))

  it("says it is loading, then draws the widgets in their columns, an unknown one as not available", async () => {
    const answer = held()
    fakeNode(routes({ [widgets]: answer.answer }))
    const el = await make()
    expect(textOf(el)).to.contain("Loading your desktop…")
    expect(textOf(el)).to.contain("Signed in as Ada (@ada)")
    answer.release({ json: layout })
    await until(() => el.shadowRoot!.querySelectorAll("section.widget").length === 2)
    expect(el.shadowRoot!.querySelector(".columns")!.classList.contains("count-2")).to.equal(true)
    expect(textOf(widget(el, "w-gone"))).to.contain("This widget is not available. acme.weather")
    await until(() => textOf(widget(el, "w-signals")).includes("Water the plants"))
    await expect(el).to.be.accessible()
  })

  it("marks the signal a link names (/?signal=<id>, a notification's) and no other", async () => {
    fakeNode(
      routes({
        "GET /api/desktop/signals": {
          json: [signal({ id: "s1", title: "Water the plants" }), signal({ id: "s2", title: "Call the plumber" })]
        }
      })
    )
    const el = await fixture<DesktopPlace>(html`<desktop-place .being=${owner} signalId="s2"></desktop-place>`)
    await until(() => el.shadowRoot!.querySelectorAll("section.widget").length === 2)
    await until(() => textOf(widget(el, "w-signals")).includes("Call the plumber"))
    const marked = () =>
      Array.from(widget(el, "w-signals")!.querySelector("desktop-signals")!.shadowRoot!.querySelectorAll("li.signal"))
        .filter((item) => item.getAttribute("aria-current") === "true")
        .map((item) => item.getAttribute("data-signal-id"))
    await until(() => marked().length === 1)
    expect(marked()).to.deep.equal(["s2"])
  })

  it("names a studio signal's project by its title, asked for once by its id, and says so when it is gone", async () => {
    const node = fakeNode(
      routes({
        "GET /api/desktop/signals": {
          json: [
            signal({ id: "s1", title: "A step failed", source: "studio:p-old" }),
            signal({ id: "s2", title: "Another alert", source: "studio:p-old" }),
            signal({ id: "s3", title: "A deleted run", source: "studio:p-gone" })
          ]
        },
        "GET /api/studio/projects/p-old": {
          json: {
            project: project({ id: "p-old", title: "Last year's tea guide" }),
            tasks: [],
            team: null,
            review: null
          }
        },
        "GET /api/studio/projects/p-gone": refusal(404, "project_not_found", "No such project.")
      })
    )
    const el = await make()
    await until(() => el.shadowRoot!.querySelectorAll("section.widget").length === 2)
    await until(() => textOf(widget(el, "w-signals")).includes("Last year's tea guide"))
    expect(textOf(widget(el, "w-signals"))).to.contain("A studio project")
    expect(node.to("GET /api/studio/projects/p-old")).to.have.length(1)
    // No list is read for titles (the owner's first steps ask only whether one project exists: limit=1).
    expect(node.to("GET /api/studio/projects").filter((sent) => sent.search.get("limit") !== "1")).to.have.length(0)
  })

  it("says an empty desktop is empty, and a failed load in the node's words", async () => {
    fakeNode(routes({ [widgets]: { json: { widgets: [], updatedAt: null } } }))
    const empty = await make()
    await until(() => textOf(empty).includes("Your desktop has no widgets."))
    fakeNode(routes({ [widgets]: refusal(429, "rate_limited", "Too many requests. Wait a minute, then try again.") }))
    const failed = await make()
    await until(() => textOf(failed).includes("Too many requests."))
  })

  it("arranges by keyboard: a move is stored at once and the keyboard stays on the moved widget", async () => {
    const node = fakeNode(
      routes({
        "PUT /api/desktop/widgets": ({ body }: Sent) => ({
          json: { ...(body as object), updatedAt: "2026-01-05T10:00:00.000Z" }
        })
      })
    )
    const el = await make()
    await until(() => el.shadowRoot!.querySelectorAll("section.widget").length === 2)
    byText(el, "button", "Arrange widgets").click()
    await el.updateComplete
    expect(textOf(widget(el, "w-signals"))).to.contain("Column 1, place 1 of 1")
    const right = find<HTMLButtonElement>(widget(el, "w-signals"), 'button[data-move="right"]')
    expect(find<HTMLButtonElement>(widget(el, "w-signals"), 'button[data-move="left"]').disabled).to.equal(true)
    expect(right.getAttribute("aria-label")).to.equal("Move Signals right")
    right.focus()
    await sendKeys({ press: "Enter" })
    const put = await node.request("PUT /api/desktop/widgets")
    expect(put.body).to.deep.equal({
      widgets: [
        { id: "w-signals", type: "core.signals", column: 1, order: 0 },
        { id: "w-gone", type: "acme.weather", column: 1, order: 1 }
      ]
    })
    await until(() => textOf(el).includes("Signals is now in column 2, place 1."))
    const focused = el.shadowRoot!.activeElement as HTMLElement
    expect(focused.closest("section")!.dataset.widgetId).to.equal("w-signals")
    expect(textOf(el)).to.contain("Column 1 is empty.")
    byText(el, "button", "Done arranging").click()
    await el.updateComplete
    expect(el.shadowRoot!.querySelector("button[data-move]")).to.equal(null)
    expect(textOf(el)).not.to.contain("Column 1 is empty.")
  })

  it("shows the node's layout again and says why when a move is refused", async () => {
    fakeNode(routes({ "PUT /api/desktop/widgets": refusal(400, "invalid_request", "The layout does not fit.") }))
    const el = await make()
    await until(() => el.shadowRoot!.querySelectorAll("section.widget").length === 2)
    byText(el, "button", "Arrange widgets").click()
    await el.updateComplete
    find<HTMLButtonElement>(widget(el, "w-signals"), 'button[data-move="right"]').click()
    await until(() => textOf(el).includes("The layout does not fit."))
    await until(() => textOf(widget(el, "w-signals")).includes("Column 1, place 1 of 1"))
  })

  it("reads out a new signal (an urgent one assertively) and adds it to the list, live", async () => {
    fakeNode(routes())
    const live = fakeLive()
    const el = await make()
    live.hello()
    await until(() => textOf(el).includes("Water the plants"))
    live.send({
      type: "signal.created",
      signal: signal({
        id: "s2",
        title: "Server down",
        priority: "urgent",
        createdAt: "2026-01-05T10:00:00.000Z",
        updatedAt: "2026-01-05T10:00:00.000Z"
      })
    })
    await until(() =>
      textOf(el.shadowRoot!.querySelector('[aria-live="assertive"]')!).includes("Urgent signal: Server down")
    )
    await until(() => textOf(widget(el, "w-signals")).includes("Server down"))
    live.send({
      type: "signal.created",
      signal: signal({
        id: "s3",
        title: "Tea time",
        createdAt: "2026-01-05T10:01:00.000Z",
        updatedAt: "2026-01-05T10:01:00.000Z"
      })
    })
    await until(() =>
      textOf(el.shadowRoot!.querySelector('[role="status"][aria-live="polite"]')!).includes("New signal: Tea time")
    )
    live.send({
      type: "signal.updated",
      signal: signal({
        id: "s2",
        title: "Server down",
        priority: "urgent",
        status: "dismissed",
        updatedAt: "2026-01-05T10:02:00.000Z"
      })
    })
    await until(() => !textOf(widget(el, "w-signals")).includes("Server down"))
  })

  it("shows a suggested widget above the others", async () => {
    fakeNode(routes())
    const live = fakeLive()
    const el = await make()
    live.hello()
    await until(() => el.shadowRoot!.querySelectorAll("section.widget").length === 2)
    live.send({ type: "widget.suggest", widgetType: "core.now", reason: "You open the desktop every morning." })
    await until(() => textOf(el).includes("You open the desktop every morning."))
  })
})
