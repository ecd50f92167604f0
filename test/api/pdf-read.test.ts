/**
 * files.read of a PDF answers markdown (extensions/files/pdf-markdown.ts): a text PDF its text
 * layer, with no model call; a scanned one the ocr tier's reading of each page, one call per page
 * with the page as a PNG; on a node with no ocr model, a note that the page could not be read; and
 * a file named .pdf that is none is refused with a clear message.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { scannedPdf, textPdf } from "../support/pdfs.ts"

let models: OpenAiServer
let node: TestNode
let blind: TestNode
let owner: Registered
let blindOwner: Registered

const place = async (target: TestNode, who: Registered, name: string, bytes: Uint8Array) => {
  const uploads = join(target.dataDir, "uploads", who.being.id)
  mkdirSync(uploads, { recursive: true })
  writeFileSync(join(uploads, name), bytes)
}

const read = (who: Registered, path: string) =>
  run(who.client.api.studioSkills.invokeSkill({ payload: { name: "files.read", input: { path } } }))

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ ocr: { baseUrl: models.baseUrl, model: "ocr-model", local: true } })
  })
  blind = await startNode({ ...noModelSettings })
  owner = await registerOwner(node)
  blindOwner = await registerOwner(blind)
  await place(node, owner, "report.pdf", await textPdf(["Quarterly figures rose.", "The second page."]))
  await place(node, owner, "scan.pdf", await scannedPdf(["Invoice 42", "Paid in full"]))
  await place(node, owner, "fake.pdf", new TextEncoder().encode("plain words, no PDF"))
  await place(blind, blindOwner, "scan.pdf", await scannedPdf(["Invoice 42"]))
})
afterAll(async () => {
  await Promise.all([node.close(), blind.close()])
  await models.close()
})
beforeEach(() => models.reset())

describe("files.read of a PDF", () => {
  it("answers a text PDF's text layer as markdown, calling no model", async () => {
    const outcome = await read(owner, "report.pdf")
    expect(outcome).toMatchObject({
      ok: true,
      output: { mime: "application/pdf", converted: "markdown", truncated: false }
    })
    expect((outcome.output as { content: string }).content).toBe(
      "<!-- page 1 -->\n\nQuarterly figures rose.\n\n<!-- page 2 -->\n\nThe second page."
    )
    expect(models.requests).toEqual([])
  })

  it("reads each page of a scan through the ocr tier, once, as a PNG", async () => {
    models.script("chat", { content: "Invoice 42" }, { content: "Paid in full" })
    const outcome = await read(owner, "scan.pdf")
    expect((outcome.output as { content: string }).content).toBe(
      "<!-- page 1 -->\n\nInvoice 42\n\n<!-- page 2 -->\n\nPaid in full"
    )
    const calls = models.requestsFor("chat")
    expect(calls.map((call) => call.body.model)).toEqual(["ocr-model", "ocr-model"])
    expect(JSON.stringify(calls[0]!.body.messages)).toContain("data:image/png;base64,")
  })

  it("notes a scanned page as unread on a node with no ocr model, rather than failing", async () => {
    const outcome = await read(blindOwner, "scan.pdf")
    expect(outcome).toMatchObject({ ok: true })
    expect((outcome.output as { content: string }).content).toBe(
      "<!-- page 1 -->\n\n_[Page 1 has no text layer and no ocr model is bound, so it could not be read.]_"
    )
  })

  it("refuses a .pdf that is not a PDF with a clear message", async () => {
    expect(await read(owner, "fake.pdf")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/fake\.pdf: The file is not a PDF/)
    })
    expect(models.requests).toEqual([])
  })
})
