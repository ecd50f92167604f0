/**
 * The files provider indexes PDFs as their markdown (extensions/files/pdf-markdown.ts): a text
 * PDF's words and a scan's pages as the ocr tier read them become document memories.
 */
import * as Option from "effect/Option"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab, type LiveFrame } from "../support/live.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { scannedPdf, textPdf } from "../support/pdfs.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  const text = await textPdf(["Biscuit is a golden retriever."])
  const scan = await scannedPdf(["Invoice 42"])
  node = await startNode((dataDir) => {
    const root = join(dataDir, "owner-folder")
    mkdirSync(join(root, "papers"), { recursive: true })
    writeFileSync(join(root, "papers", "dog.pdf"), text)
    writeFileSync(join(root, "papers", "scan.pdf"), scan)
    return {
      ...noModelSettings,
      llmTiers: tierSettings({
        embed: { baseUrl: models.baseUrl, model: "meaning-embed" },
        ocr: { baseUrl: models.baseUrl, model: "ocr-model", local: true }
      }),
      filesRoot: Option.some(root)
    }
  })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

const isSynced = (frame: LiveFrame) => frame.type === "twin.activity" && /^(Synced|Could not sync)/.test(frame.summary)

describe("indexing a folder of PDFs", () => {
  it("remembers a text PDF's words and a scan's pages as the ocr tier read them", async () => {
    models.script("chat", { content: "Invoice 42, paid in full" })
    const tab = await LiveTab.open(node, owner.client)
    expect(
      await run(owner.client.api.twin.sync({ path: { provider: "files" }, urlParams: { path: "papers" } }))
    ).toEqual({ started: true })
    const frames = await tab.upTo(isSynced)
    tab.close()
    const created = frames.flatMap((frame) => (frame.type === "memory.created" ? [frame.memory] : []))
    const bySource = new Map(created.map((memory) => [memory.source, memory.content]))
    expect(bySource.get("files:papers/dog.pdf")).toContain("Biscuit is a golden retriever.")
    expect(bySource.get("files:papers/scan.pdf")).toContain("Invoice 42, paid in full")
    expect(models.requestsFor("chat").map((call) => call.body.model)).toEqual(["ocr-model"])
  })
})
