/**
 * The scripted studio team for browser tests: it answers what the pipeline asks (studio/projects,
 * actors/project) through the scripted OpenAI server. The planner (`response_format` named "plan")
 * gets a plan; each task's agent first saves its deliverable with `files__write`, written to the
 * requirements its instruction lists (file, length, sections, links, frontmatter), then answers a
 * closing message once the tool result is back; the QA reviewer (`response_format` named "review")
 * gives a verdict. Tests hold the agents or the reviewer at a gate to look at a run under way.
 */
import type { OpenAiServer } from "../support/openai-server.ts"
import type { ChatReply, ReceivedRequest } from "../support/openai-replies.ts"

/** A gate the scripted models wait at while it is closed. */
export class Gate {
  #open = true
  #waiting: Array<() => void> = []

  close(): void {
    this.#open = false
  }

  open(): void {
    this.#open = true
    for (const release of this.#waiting.splice(0)) release()
  }

  pass(): Promise<void> {
    return this.#open ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve))
  }
}

export const verdict = {
  verdict: "pass-with-notes",
  notes: "Clear and faithful to the notes. Name an owner for the open budget question."
}

const plan = {
  tasks: [
    {
      id: "note",
      title: "Write the note on green tea",
      description: "A short note on green tea for a curious reader.",
      role: "writer",
      skills: ["files.write"],
      deliverable: { file: "note.md", requireSections: ["Summary", "Sources"] }
    }
  ]
}

const userTexts = (request: ReceivedRequest): Array<string> =>
  (request.body.messages ?? [])
    .filter((message: any) => message.role === "user")
    .map((message: any) => String(message.content))

const formatName = (request: ReceivedRequest): string | null => request.body.response_format?.json_schema?.name ?? null

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")

const filler = "The team kept to what the notes say and wrote it down plainly for the reader".split(" ")

/** A deliverable that meets what the task's instruction asks ("The deliverable must satisfy: …"). */
const deliverableFor = (
  title: string,
  instruction: string,
  extraMarkdown: string
): { path: string; content: string } => {
  const path = /^- Save it as (\S+)\.$/m.exec(instruction)?.[1] ?? `${slug(title)}.md`
  if (path.endsWith(".csv"))
    return { path, content: "action,owner,due\nShip the beta,Ana,2030-07-01\nWrite the changelog,Ben,\n" }
  const range = /between (\d+) and (\d+)\)/.exec(instruction)
  const target = range === null ? 80 : Math.round((Number(range[1]) + Number(range[2])) / 2)
  const sections = /^- Include these sections as markdown headings: (.*)\.$/m.exec(instruction)?.[1].split(", ") ?? [
    "Summary"
  ]
  const links = Number(/Link at least (\d+) distinct sources/.exec(instruction)?.[1] ?? 1)
  const frontmatter = /^- Start with YAML frontmatter holding: (.*)\.$/m.exec(instruction)?.[1].split(", ") ?? []
  const lines: Array<string> = []
  if (frontmatter.length > 0) lines.push("---", ...frontmatter.map((key) => `${key}: ${title}`), "---", "")
  lines.push(`# ${title}`, "")
  const sources = Array.from({ length: links }, (_, index) => `https://example.org/source-${index + 1}`)
  let words = title.split(/\s+/).length
  for (const [index, section] of sections.entries()) {
    lines.push(`## ${section}`, "")
    words += section.split(/\s+/).length
    const share = Math.max(8, Math.floor((target - words) / (sections.length - index)))
    const sentence = Array.from({ length: share }, (_, at) => filler[at % filler.length]).join(" ")
    words += share
    lines.push(`${sentence}.`, "")
  }
  if (sources.length > 0) lines.push(...sources.map((url) => `- See ${url}`), "")
  if (extraMarkdown !== "") lines.push(extraMarkdown, "")
  return { path, content: lines.join("\n") }
}

/** The scripted studio team; `agents` and `reviewer` gate the task calls and the QA review. */
/** `extraMarkdown` ends every markdown deliverable (a test of how the app shows what agents write). */
export const scriptTeam = (
  models: OpenAiServer,
  gates: { readonly agents: Gate; readonly reviewer: Gate },
  extraMarkdown = ""
) =>
  models.handle("chat", async (request): Promise<ChatReply> => {
    const format = formatName(request)
    if (format === "plan") return { content: JSON.stringify(plan) }
    if (format === "review") {
      await gates.reviewer.pass()
      return { content: JSON.stringify(verdict) }
    }
    const instruction = userTexts(request)[0] ?? ""
    const title = /^Task: (.*)$/m.exec(instruction)?.[1]
    if (title === undefined) return { content: "ok" }
    await gates.agents.pass()
    const messages = request.body.messages as Array<any>
    if (messages.at(-1)?.role === "tool") return { content: `I saved the work for “${title}”.` }
    const written = deliverableFor(title, userTexts(request).join("\n"), extraMarkdown)
    return {
      content: `Writing ${written.path}.`,
      toolCalls: [{ id: `write-${messages.length}`, name: "files__write", arguments: written }]
    }
  })
