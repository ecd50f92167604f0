/**
 * What the demo models answer besides the studio's chat (studio-work.ts): vectors that depend only
 * on the text, a tiny picture, a transcript and a short silence, and a plain reply for any other
 * chat. Shared with the scripted test server, whose unscripted answers are these.
 */
import { exampleOf } from "./schema-example.ts"
import type { ChatMessage, DemoRequest, DemoReply } from "./studio-work.ts"

/** A 1×1 transparent PNG: the default generated image. */
export const tinyPng =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

/** A vector that depends only on the text, so equal inputs embed equally. */
export const vectorOf = (text: string, dimensions = 8): number[] => {
  const vector = new Array<number>(dimensions).fill(0)
  for (let i = 0; i < text.length; i++) vector[i % dimensions] += text.charCodeAt(i) / 1000
  const norm = Math.hypot(...vector) || 1
  return vector.map((value) => value / norm)
}

/** Four characters a token, as the ledger counts a reply that reports no usage. */
export const tokensOf = (text: string) => Math.ceil(text.length / 4)

const lastUserText = (messages: ReadonlyArray<ChatMessage>): string => {
  const last = [...messages].reverse().find((message) => message.role === "user")
  const content = last?.content
  return typeof content === "string" ? content : JSON.stringify(content ?? "")
}

export interface StructuredRequest extends DemoRequest {
  readonly response_format?: {
    readonly type?: string
    readonly json_schema?: { readonly name?: string; readonly schema?: Readonly<Record<string, unknown>> }
  }
}

/** Unscripted: JSON that fits the requested schema, or `<who> to: <what was asked>`. */
export const plainReply = (request: StructuredRequest, who: string): DemoReply => {
  const format = request.response_format
  if (format?.type === "json_schema") return { content: JSON.stringify(exampleOf(format.json_schema?.schema ?? {})) }
  if (format?.type === "json_object") return { content: "{}" }
  const asked = lastUserText(request.messages ?? []).slice(0, 200)
  return { content: `${who} to: ${asked}` }
}
