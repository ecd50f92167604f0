/**
 * A scripted studio team on the scripted OpenAI server: the planner answers a plan, the QA
 * reviewer a verdict, and each task's agent saves one file with files.write and then says it is
 * done. Tests choose what each task writes (per task title and repair round) and can slow or
 * refuse calls, and read back which calls were made for which task.
 */
import type { OpenAiServer } from "../support/openai-server.ts"
import type { ChatReply, ReceivedRequest } from "../support/openai-replies.ts"

export interface Written {
  readonly path: string
  readonly content: string
}

export interface StudioScript {
  /** The plan the planner answers (as the model's JSON). */
  readonly plan?: unknown
  /**
   * What the task titled `title` saves in repair round `repair` (0 first); null saves nothing, undefined the default.
   */
  readonly write?: (title: string, repair: number) => Written | null | undefined
  /** An extra tool call the task makes before saving (a world-acting skill, say). */
  readonly extraCall?: (title: string) => { readonly name: string; readonly arguments: unknown } | null
  readonly delayMs?: (title: string) => number
  readonly verdict?: { readonly verdict: string; readonly notes: string }
}

const userTexts = (request: ReceivedRequest): Array<string> =>
  (request.body.messages ?? []).filter((message) => message.role === "user").map((message) => String(message.content))

/** The title of the task a call is for ("Task: <title>" opens its instruction), or null for planner and review. */
export const taskTitleOf = (request: ReceivedRequest): string | null => {
  const first = userTexts(request)[0] ?? ""
  return /^Task: (.*)$/m.exec(first)?.[1] ?? null
}

const formatName = (request: ReceivedRequest): string | null => request.body.response_format?.json_schema?.name ?? null

export const isPlannerCall = (request: ReceivedRequest) => formatName(request) === "plan"
export const isReviewCall = (request: ReceivedRequest) => formatName(request) === "review"

/** At the file the instruction names ("Save it as x."), else one named after the task. */
const defaultWrite = (title: string, named: string | null): Written => ({
  path:
    named ??
    `${title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")}.md`,
  content: `# ${title}\n\n## Summary\n\nThe work of the task ${title}, done well. See https://example.org/source for more.\n`
})

export const scriptStudio = (server: OpenAiServer, script: StudioScript = {}) =>
  server.handle("chat", (request): ChatReply => {
    if (isPlannerCall(request))
      return { content: JSON.stringify(script.plan ?? { tasks: [{ id: "write", title: "Write it", role: "writer" }] }) }
    if (isReviewCall(request))
      return { content: JSON.stringify(script.verdict ?? { verdict: "pass", notes: "Does what the brief asks." }) }
    const title = taskTitleOf(request)
    if (title === null) return { content: "ok" }
    const delayMs = script.delayMs?.(title) ?? 0
    const messages = request.body.messages ?? []
    const last = messages[messages.length - 1]!
    const repair = userTexts(request).filter((text) => text.startsWith("Your deliverable did not pass")).length
    const calledExtra = messages.some(
      (message) => message.role === "assistant" && message.tool_calls?.some((call) => call.id === "extra")
    )
    if (last.role === "tool" && !(last.tool_call_id === "extra"))
      return { content: `Saved the work for ${title}.`, delayMs }
    const extra = script.extraCall?.(title) ?? null
    if (extra !== null && !calledExtra)
      return { toolCalls: [{ id: "extra", name: extra.name, arguments: extra.arguments }], delayMs }
    const named = /^- Save it as (.+)\.$/m.exec(userTexts(request)[0] ?? "")?.[1] ?? null
    const scripted = script.write?.(title, repair)
    const written = scripted === undefined ? defaultWrite(title, named) : scripted
    if (written === null) return { content: "I could not save anything.", delayMs }
    return { toolCalls: [{ id: `write-${repair}`, name: "files__write", arguments: written }], delayMs }
  })

/** The model calls made for one task. */
export const callsFor = (server: OpenAiServer, title: string) =>
  server.requestsFor("chat").filter((request) => taskTitleOf(request) === title)
