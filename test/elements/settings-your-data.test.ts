import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/settings/settings-your-data.ts"
import type { SettingsYourData } from "../../ui/places/settings/settings-your-data.ts"
import { fakeNode, fill, find, findAll, refusal, textOf, until } from "./support/fake-node.ts"

const backup = {
  id: "backup-20301130T131154Z",
  createdAt: "2030-11-30T13:11:54.000Z",
  bytes: 2_400_000,
  sha256: "a".repeat(64),
  counts: { beings: 2, memories: 41, events: 3, todos: 5, messages: 12, projects: 1, files: 7, listings: 0 }
}
const schedule = { everyHours: 24, keep: 7, lastRunAt: null, lastError: null }

describe("<settings-your-data>", () => {
  it("shows the owner's backups with their size and counts, makes one and verifies one", async () => {
    let listed = [backup]
    const made = { ...backup, id: "backup-20301201T080000Z", createdAt: "2030-12-01T08:00:00.000Z" }
    const node = fakeNode({
      "GET /api/backups": () => ({ json: listed }),
      "GET /api/backups/schedule": { json: schedule },
      "POST /api/backups": () => {
        listed = [made, backup]
        return { status: 201, json: made }
      },
      [`POST /api/backups/${backup.id}/verify`]: { json: { ok: true, counts: backup.counts, problems: [] } }
    })
    const el = await fixture<SettingsYourData>(html`<settings-your-data owner></settings-your-data>`)
    await until(() => textOf(el).includes("41 memories, 3 events, 5 to-dos, 12 messages, 7 files"))
    expect(textOf(el)).to.contain("Every 24 hours, keeping 7.")
    expect(find<HTMLAnchorElement>(el, "a[download][href$='/download']").getAttribute("href")).to.equal(
      `/api/backups/${backup.id}/download`
    )
    expect(find<HTMLAnchorElement>(el, "a[href='/api/export.zip']")).to.not.equal(null)

    fill(el, { passphrase: "a long passphrase" })
    find<HTMLButtonElement>(find(el, "settings-backups"), "button[type=submit]").click()
    await until(() => findAll(el, "tr.backup").length === 2)
    expect(node.to("POST /api/backups")[0]!.body).to.deep.equal({ passphrase: "a long passphrase" })

    const prompt = window.prompt
    window.prompt = () => "a long passphrase"
    try {
      const older = findAll(el, "tr.backup")[1]!
      findAll<HTMLButtonElement>(older, "button")
        .find((button) => button.textContent?.trim() === "Verify")!
        .click()
      await until(() => textOf(el).includes("Verified: it opens and every part is whole."))
    } finally {
      window.prompt = prompt
    }
  })

  it("shows no backups to anyone but the owner, and says what an import brought in", async () => {
    const node = fakeNode({
      "POST /api/twin/import": {
        json: {
          imported: { events: 2, todos: 1, memories: 3, threads: 0 },
          skipped: 1,
          problems: ["scan.pdf: not a calendar (.ics), a note (.md, .txt), a zipped vault or a ChatGPT export"]
        }
      }
    })
    const el = await fixture<SettingsYourData>(html`<settings-your-data></settings-your-data>`)
    expect(findAll(el, "settings-backups")).to.have.length(0)
    const input = find<HTMLInputElement>(el, "input[type=file]")
    const files = new DataTransfer()
    files.items.add(new File(["BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"], "work.ics"))
    input.files = files.files
    find<HTMLButtonElement>(el, "form button[type=submit]").click()
    await until(() => textOf(el).includes("Imported 2 events, 1 to-dos, 3 notes and 0 conversations; 1 already here."))
    expect(textOf(el)).to.contain("scan.pdf: not a calendar")
    expect(node.to("POST /api/twin/import")).to.have.length(1)
  })

  it("says a refused import in the node's words", async () => {
    fakeNode({
      "POST /api/twin/import": refusal(413, "payload_too_large", "The request body is larger than this route takes.")
    })
    const el = await fixture<SettingsYourData>(html`<settings-your-data></settings-your-data>`)
    const files = new DataTransfer()
    files.items.add(new File(["x"], "big.zip"))
    find<HTMLInputElement>(el, "input[type=file]").files = files.files
    find<HTMLButtonElement>(el, "form button[type=submit]").click()
    await until(() => textOf(el).includes("The request body is larger than this route takes."))
  })
})
