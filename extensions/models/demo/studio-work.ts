/**
 * The demo models' chat: answered the way a model answers the studio, so a node with no key (the
 * built-in demo provider, `npm run demo`, or the scripted test server in demo mode) runs any
 * generator, or a brief, to done with its deliverable checks passing. Nothing here knows a
 * generator: it reads what each request asks.
 *
 * - The planner (`response_format` named "plan"): one writing task for the brief.
 * - A task's agent (its instruction opens with "Task: "): reads the requirements the instruction
 *   lists ("The deliverable must satisfy: …", actors/project/instruction.ts), searches first when it
 *   must cite sources and web.search is offered, saves the file with files.write at the named path
 *   (sections, frontmatter, length, links, and the header a CSV is asked for), then says what it
 *   saved once the tool's result is back. Its links are those the conversation holds (earlier
 *   steps' notes, search results), topped up with example.org addresses.
 * - The QA reviewer (`response_format` named "review"): a verdict that says the text is filler.
 *
 * The text is filler that says so: the point is to watch the run, not to read the result.
 */
import { countWords, proseLines } from "../../../actors/project/contract/words.ts"

/** One message of a chat call as the OpenAI protocol carries it (what the demo reads of it). */
export interface ChatMessage {
  readonly role: string
  /** A string, or an array of parts (`{ type: "text", text }`, an image…); null beside tool calls. */
  readonly content?: unknown
  readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly name: string } }>
}

/** A chat request's body, as far as the demo reads it. */
export interface DemoRequest {
  readonly messages?: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<{ readonly function: { readonly name: string } }>
  readonly response_format?: { readonly json_schema?: { readonly name?: string } }
}

export interface DemoReply {
  readonly content: string
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: unknown }>
}

/** The text of a message's content: the string itself, or its text parts joined. */
const textOf = (content: unknown, separator: string): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .filter((part): part is { type: "text"; text: unknown } => part?.type === "text")
          .map((part) => String(part.text))
          .join(separator)
      : ""

interface Requirements {
  readonly path: string
  readonly words: number | null
  readonly frontmatter: ReadonlyArray<string>
  readonly sections: ReadonlyArray<string>
  readonly minLinks: number
  readonly csvHeader: ReadonlyArray<string> | null
}

/** Words of a file whose contract names no length: enough to read as notes. */
const defaultWords = 160

/** Sentences of the filler, each whole; a paragraph takes them in turn from its own starting point. */
const fillerSentences = (section: string, title: string): ReadonlyArray<string> => [
  `This part, ${section}, stands in for what a model would write for “${title}”.`,
  "The demo models wrote it, so the run can be watched from start to end without a key.",
  "Each check of the step reads only what was saved: the file, its headings, its length and its links.",
  "A real model would draw here on the work of the earlier steps and on the sources they found.",
  "Point the node at a model provider, or at a local server such as llama.cpp or Ollama, for real writing.",
  "Until then these words are placeholders, and they say so."
]

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "work"

const listAfter = (text: string, label: string): ReadonlyArray<string> =>
  new RegExp(`^- ${label}: (.*)\\.$`, "m")
    .exec(text)?.[1]
    .split(", ")
    .map((item) => item.trim())
    .filter((item) => item !== "") ?? []

const requirementsOf = (title: string, instruction: string): Requirements => {
  const path = /^- Save it as (\S+)\.$/m.exec(instruction)?.[1] ?? `${slug(title)}.md`
  const range = /^- Length: about \d+ words \(between (\d+) and (\d+)\)\.$/m.exec(instruction)
  const header = /with the header ([^\s,]+(?:,[^\s,.]+)*)/.exec(instruction)?.[1]
  return {
    path,
    words: range === null ? null : Math.round((Number(range[1]) + Number(range[2])) / 2),
    frontmatter: listAfter(instruction, "Start with YAML frontmatter holding"),
    sections: listAfter(instruction, "Include these sections as markdown headings"),
    minLinks: Number(/^- Link at least (\d+) distinct sources/m.exec(instruction)?.[1] ?? 0),
    csvHeader: header === undefined ? null : header.split(",")
  }
}

/** Addresses the conversation already holds (notes of earlier steps, search results), in order. */
const linksIn = (messages: ReadonlyArray<ChatMessage>): Array<string> => {
  const found = messages
    .filter((message) => message.role === "user" || message.role === "tool")
    .flatMap((message) => textOf(message.content, "\n").match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? [])
    .map((url) => url.replace(/[.,;:!?]+$/, ""))
  return [...new Set(found)]
}

/** The conversation's links, topped up to what the task must cite (or a few, for notes that research). */
const sourcesFor = (title: string, messages: ReadonlyArray<ChatMessage>, wanted: number): Array<string> => {
  const links = linksIn(messages)
  for (let n = 1; links.length < wanted; n++) {
    const made = `https://example.org/demo/${slug(title)}/source-${n}`
    if (!links.includes(made)) links.push(made)
  }
  return links
}

/** Whole sentences up to about `words` words (at least one sentence). */
const paragraphOf = (section: string, title: string, words: number, offset: number): string => {
  const sentences = fillerSentences(section, title)
  const taken: Array<string> = []
  let count = 0
  for (let index = offset; ; index++) {
    const sentence = sentences[index % sentences.length]
    const size = countWords([sentence])
    if (taken.length > 0 && count + size > words) return taken.join(" ")
    taken.push(sentence)
    count += size
  }
}

const yamlString = (value: string) => JSON.stringify(value)

const isSources = (section: string) => /^sources$/i.test(section.trim())

const markdownFor = (title: string, requirements: Requirements, links: ReadonlyArray<string>): string => {
  const asked = requirements.sections.length > 0 ? requirements.sections : ["Notes"]
  const sections = links.length === 0 || asked.some(isSources) ? asked : [...asked, "Sources"]
  const prose = sections.filter((section) => !isSources(section))
  const front =
    requirements.frontmatter.length === 0
      ? ""
      : `---\n${requirements.frontmatter.map((key) => `${key}: ${yamlString(key === "title" ? title : `Demo ${key} for ${title}`)}`).join("\n")}\n---\n\n`
  const opening =
    `Demo text for “${title}”, written by the demo models rather than a model.` +
    (links.length === 0 ? "" : ` It draws on ${links.join(", ")}.`)
  const body = (paragraphs: ReadonlyMap<string, string>) =>
    [
      `# ${title}`,
      opening,
      ...sections.flatMap((section) => [
        `## ${section}`,
        isSources(section) ? links.map((link) => `- ${link}`).join("\n") : (paragraphs.get(section) ?? "")
      ])
    ]
      .filter((block) => block !== "")
      .join("\n\n")
  // The words the headings and the opening hold are measured; whole sentences make up the rest to just
  // under the target, which every length check's tolerance (20% or more) leaves room for.
  const fixed = countWords(proseLines(body(new Map())))
  const share = Math.max(0, (requirements.words ?? defaultWords) - fixed) / prose.length
  const paragraphs = new Map(
    prose.map((section, index) => [section, paragraphOf(section, title, share, index)] as const)
  )
  return `${front}${body(paragraphs)}\n`
}

const weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

const cellFor = (column: string, row: number): string => {
  if (/hour|total|score|weight|count|cost|price|amount/i.test(column)) return String(row * 2 + 1)
  if (/^day$/i.test(column)) return weekdays[(row - 1) % weekdays.length]
  if (/due|date/i.test(column)) return `2030-01-0${row}`
  return `Demo ${column} ${row}`
}

const csvFor = (requirements: Requirements): string => {
  const header = requirements.csvHeader ?? ["item", "note", "total"]
  const rows = [1, 2, 3].map((row) => header.map((column) => cellFor(column, row)).join(","))
  return `${[header.join(","), ...rows].join("\n")}\n`
}

const toolNames = (request: DemoRequest): ReadonlySet<string> =>
  new Set((request.tools ?? []).map((tool) => String(tool.function.name)))

const calls = (messages: ReadonlyArray<ChatMessage>, name: string) =>
  messages.some(
    (message) => message.role === "assistant" && (message.tool_calls ?? []).some((call) => call.function.name === name)
  )

/** The demo models' app: one component that says what it is. */
const demoApp = (name: string) =>
  `export function App() {\n  return (\n    <main>\n      <h1>${name.replace(/[<>{}]/g, "")}</h1>\n      <p>A demo app made by the demo models. Connect a model in Settings → Models for a real one.</p>\n    </main>\n  )\n}\n`

const agentReply = (request: DemoRequest, title: string, instruction: string): DemoReply => {
  const messages = request.messages ?? []
  const requirements = requirementsOf(title, instruction)
  const tools = toolNames(request)
  if (!tools.has("files__write")) {
    return { content: `I was not given files.write, so I cannot save ${requirements.path} for “${title}”.` }
  }
  // This pass began at the last user message: the task, or a repair prompt after it.
  const lastUser = messages.findLastIndex((message) => message.role === "user")
  if (calls(messages.slice(lastUser), "files__write")) {
    return {
      content: `I saved ${requirements.path} for “${title}”. It is demo text from the demo models, shaped to pass the step's checks.`
    }
  }
  // A step that builds an app asks for the build first (it waits for the owner's "Do it"), then writes its README.
  if (tools.has("code__scaffold_react_node") && !calls(messages, "code__scaffold_react_node")) {
    const name = title.replace(/^Build the app\s+/i, "").slice(0, 80) || "Demo app"
    return {
      content: `Building ${name}: it waits for your approval.`,
      toolCalls: [
        {
          id: `build-${messages.length}`,
          name: "code__scaffold_react_node",
          arguments: { title: name, app: demoApp(name) }
        }
      ]
    }
  }
  // Research cites: the contract says how many links, or the instruction asks for sources.
  const ownInstruction = instruction.split("\n## Work this builds on")[0]
  const cites = requirements.minLinks > 0 || /\b(?:links?|sources?)\b/i.test(ownInstruction)
  if (cites && tools.has("web__search") && !calls(messages, "web__search")) {
    return {
      content: `Searching for sources on “${title}”.`,
      toolCalls: [{ id: `search-${messages.length}`, name: "web__search", arguments: { query: title, maxResults: 5 } }]
    }
  }
  const links = sourcesFor(title, messages, cites ? Math.max(requirements.minLinks, 2) : 0)
  const content = requirements.path.endsWith(".csv") ? csvFor(requirements) : markdownFor(title, requirements, links)
  return {
    content: `Writing ${requirements.path}.`,
    toolCalls: [
      { id: `write-${messages.length}`, name: "files__write", arguments: { path: requirements.path, content } }
    ]
  }
}

const planFor = (brief: string) => {
  const topic = brief.replace(/\s+/g, " ").trim().slice(0, 80)
  return {
    tasks: [
      {
        id: "write",
        title: `Write: ${topic}`,
        description: `Write what the brief asks for: ${brief}`,
        role: "writer",
        skills: ["files.write"],
        deliverable: {
          file: `${slug(topic).slice(0, 60)}.md`,
          requireSections: ["Summary", "Sources"],
          minSourceLinks: 2
        }
      }
    ]
  }
}

const reviewOf = (work: string) => {
  const steps = (work.match(/^### /gm) ?? []).length
  return {
    verdict: "pass-with-notes",
    notes:
      `The demo reviewer looked at ${steps} step${steps === 1 ? "" : "s"}: each saved what it was asked for. ` +
      "The text is the demo models' filler, not research: connect a model in Settings → Models for real work."
  }
}

/** The demo answer to a chat call, or null for a call that is not the studio's (the server's default answers it). */
export const demoChat = (request: DemoRequest): DemoReply | null => {
  const messages = request.messages ?? []
  const users = messages.filter((message) => message.role === "user").map((message) => textOf(message.content, "\n"))
  const format = request.response_format?.json_schema?.name
  if (format === "plan") return { content: JSON.stringify(planFor(users.at(-1) ?? "")) }
  if (format === "review") return { content: JSON.stringify(reviewOf(users.at(-1) ?? "")) }
  const title = /^Task: (.*)$/m.exec(users[0] ?? "")?.[1]
  return title === undefined ? null : agentReply(request, title, users[0] ?? "")
}
