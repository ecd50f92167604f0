/**
 * The Muse reads what is attached (extensions/threads/attachments.ts, extensions/threads/muse-prompt.ts):
 * the chat request the standard tier receives holds a text PDF's words and a markdown upload's
 * text; a scanned PDF's page goes to the ocr tier first; an image is named only; a file that is no
 * text or a broken PDF is named as unreadable and the reply still comes; one message's attachments
 * are read up to the budget, and the prompt says where it cut; another's upload stays refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import {
  apiError,
  registerMember,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Client,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { pictureOfWords, scannedPdf, textPdf } from "../support/pdfs.ts"

let node: TestNode
let owner: Registered
let member: Registered
let models: OpenAiServer

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({
      standard: { baseUrl: models.baseUrl, model: "standard-model" },
      ocr: { baseUrl: models.baseUrl, model: "ocr-model", local: true }
    })
  })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await models.close()
})
beforeEach(() => {
  models.reset()
  models.handle("chat", (request) => ({
    content: request.model === "ocr-model" ? "Invoice 42, paid in full" : "I have read them."
  }))
})

const upload = async (client: Client, name: string, content: Uint8Array | string) => {
  const form = new FormData()
  form.append("file", new Blob([typeof content === "string" ? content : new Uint8Array(content)]), name)
  const response = await fetch(`${client.base}/api/files/upload`, {
    method: "POST",
    body: form,
    headers: { ...client.headers, cookie: client.cookieHeader() }
  })
  const body = (await response.json()) as ReadonlyArray<{ id: string }>
  return body[0]!.id
}

/** Posts to the being's Muse thread and waits for the stored reply; answers what the standard tier was sent last. */
const askWith = async (who: Registered, content: string, attachments: ReadonlyArray<string>) => {
  const [thread] = await run(who.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
  const tab = await LiveTab.open(node, who.client)
  tab.send({ type: "subscribe", topic: `thread:${thread!.id}` })
  await tab.nextOf("subscribed")
  await run(who.client.api.threads.postMessage({ path: { id: thread!.id }, payload: { content, attachments } }))
  const reply = await tab.nextOf("message.created", (frame) => frame.message.role === "assistant", 20_000)
  tab.close()
  const asked = models
    .requestsFor("chat")
    .filter((request) => request.model === "standard-model")
    .at(-1)!
  return {
    reply: reply.message,
    prompt: String(asked.body.messages!.at(-1)!.content),
    conversation: JSON.stringify(asked.body.messages)
  }
}

describe("the Muse reading attachments", () => {
  it("reads a text PDF and a markdown upload into the prompt", async () => {
    const pdf = await upload(member.client, "report.pdf", await textPdf(["Quarterly figures rose by nine percent."]))
    const notes = await upload(member.client, "notes.md", "# Notes\n\nBiscuit prefers the blue lead.")
    const { reply, prompt } = await askWith(member, "What do these say?", [pdf, notes])
    expect(reply.content).toBe("I have read them.")
    expect(prompt).toContain("What do these say?")
    expect(prompt).toContain(
      "--- report.pdf ---\n<!-- page 1 -->\n\nQuarterly figures rose by nine percent.\n--- end of report.pdf ---"
    )
    expect(prompt).toContain("--- notes.md ---\n# Notes\n\nBiscuit prefers the blue lead.\n--- end of notes.md ---")
    expect(models.requestsFor("chat").map((request) => request.model)).toEqual(["standard-model"])
  })

  it("sends a scanned page to the ocr tier and gives the Muse what it read", async () => {
    const scan = await upload(member.client, "invoice.pdf", await scannedPdf(["Invoice 42"]))
    const { prompt } = await askWith(member, "Is this paid?", [scan])
    expect(prompt).toContain(
      "--- invoice.pdf ---\n<!-- page 1 -->\n\nInvoice 42, paid in full\n--- end of invoice.pdf ---"
    )
    const ocr = models.requestsFor("chat").filter((request) => request.model === "ocr-model")
    expect(ocr).toHaveLength(1)
    expect(JSON.stringify(ocr[0]!.body.messages)).toContain("data:image/png;base64,")
  })

  it("names an image only, and a file it cannot read as unreadable, and still replies", async () => {
    const picture = await upload(member.client, "photo.png", pictureOfWords("a dog"))
    const broken = await upload(member.client, "broken.pdf", "%PDF-1.7 this is no PDF at all")
    const binary = await upload(member.client, "archive.zip", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]))
    const { reply, prompt, conversation } = await askWith(member, "And these?", [picture, broken, binary])
    expect(reply.content).toBe("I have read them.")
    expect(prompt).toContain("[photo.png is an image: you cannot see it, only its name.]")
    expect(prompt).toMatch(/\[broken\.pdf could not be read: The PDF could not be parsed: .+\]/)
    expect(prompt).toContain("[archive.zip could not be read: it is not text or a PDF (application/zip).]")
    // The earlier message's scan is read again for this reply, from what was read before: no second ocr call.
    expect(conversation).toContain("Invoice 42, paid in full")
    expect(models.requestsFor("chat").map((request) => request.model)).toEqual(["standard-model"])
  })

  it("reads one message's attachments up to 20,000 characters in all, and says where it cut", async () => {
    const first = await upload(member.client, "first.txt", "a".repeat(15_000))
    const second = await upload(member.client, "second.txt", "b".repeat(15_000))
    const third = await upload(member.client, "third.txt", "c".repeat(10))
    const { prompt } = await askWith(member, "Long ones", [first, second, third])
    expect(prompt).toContain(`--- first.txt ---\n${"a".repeat(15_000)}\n--- end of first.txt ---`)
    expect(prompt).toContain(
      `--- second.txt ---\n${"b".repeat(5_000)}\n[second.txt is cut here: the attachments of one message are read up to 20000 characters in all.]`
    )
    expect(prompt).not.toContain("b".repeat(5_001))
    expect(prompt).toContain(
      "[third.txt was not read: the attachments of one message are read up to 20000 characters in all.]"
    )
  })

  it("still refuses another member's upload, and the Muse is not asked", async () => {
    const theirs = await upload(owner.client, "private.md", "The owner's own notes.")
    const [thread] = await run(member.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const before = await run(member.client.api.threads.listMessages({ path: { id: thread!.id } }))
    const answer = await member.client.raw("POST", `/api/threads/${thread!.id}/messages`, {
      content: "Read this",
      attachments: [theirs]
    })
    expect([answer.status, apiError(answer).error]).toEqual([404, "attachment_not_found"])
    expect(await run(member.client.api.threads.listMessages({ path: { id: thread!.id } }))).toEqual(before)
    expect(models.requestsFor("chat")).toEqual([])
  })
})
