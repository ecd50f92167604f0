/**
 * The node's chat shapes to and from the OpenAI wire protocol (through the SDK's types), and the
 * assembly of a streamed answer from its chunks.
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool
} from "openai/resources/chat/completions"
import type { ChatMessage, ChatRequest, ToolCall, ToolDefinition } from "./contract/chat.ts"

const toWireMessage = (message: ChatMessage): ChatCompletionMessageParam => {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content }
    case "user":
      return {
        role: "user",
        content:
          typeof message.content === "string"
            ? message.content
            : message.content.map((part) =>
                part.type === "text"
                  ? { type: "text", text: part.text }
                  : { type: "image_url", image_url: { url: part.url } }
              )
      }
    case "assistant": {
      const toolCalls = message.toolCalls ?? []
      if (toolCalls.length === 0) return { role: "assistant", content: message.content }
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments }
        }))
      }
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content }
  }
}

/**
 * A list of tools on the wire, and its JSON, made once per list: a caller that offers the same list
 * call after call (the Muse's ~30 skills, 38 KB of JSON Schema) keeps it, so neither the list nor
 * its JSON is rebuilt at each call (the JSON was most of a call's own CPU before the request left).
 */
const wireTools = new WeakMap<ReadonlyArray<ToolDefinition>, Array<ChatCompletionTool>>()
const toolsJson = new WeakMap<ReadonlyArray<ChatCompletionTool>, string>()

const wireToolsOf = (tools: ReadonlyArray<ToolDefinition>): Array<ChatCompletionTool> => {
  const known = wireTools.get(tools)
  if (known !== undefined) return known
  const made = tools.map(
    (tool): ChatCompletionTool => ({
      type: "function",
      function: {
        name: tool.name,
        parameters: tool.parameters,
        ...(tool.description === undefined ? {} : { description: tool.description })
      }
    })
  )
  wireTools.set(tools, made)
  return made
}

const jsonOfTools = (tools: ReadonlyArray<ChatCompletionTool>): string => {
  const known = toolsJson.get(tools)
  if (known !== undefined) return known
  const made = JSON.stringify(tools)
  toolsJson.set(tools, made)
  return made
}

/** The body of a chat completion, without `stream`; `local` when the binding is a local server. */
export const toWireRequest = (model: string, request: ChatRequest, local = false): ChatCompletionCreateParamsBase => {
  const body: ChatCompletionCreateParamsBase = { model, messages: request.messages.map(toWireMessage) }
  if (request.maxTokens !== undefined) {
    // OpenAI's reasoning models refuse max_tokens (deprecated there); local servers know only it.
    if (local) body.max_tokens = request.maxTokens
    else body.max_completion_tokens = request.maxTokens
  }
  if (request.tools !== undefined && request.tools.length > 0) body.tools = wireToolsOf(request.tools)
  const format = request.responseFormat
  if (format?.type === "json_schema") {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: format.name, schema: format.schema, strict: format.strict ?? true }
    }
  } else if (format?.type === "json_object") {
    body.response_format = { type: "json_object" }
  }
  return body
}

/**
 * The request's JSON as it is sent, the tools' JSON made once per list (`jsonOfTools`): given to the SDK as the
 * body, so it does not serialise the whole request again at every call (for the Muse, 38 KB of tools' JSON Schema:
 * about 0.25 ms of each call before its request could leave).
 */
export const wireJson = (body: ChatCompletionCreateParamsBase): string => {
  const { tools, ...rest } = body
  const head = JSON.stringify(rest)
  return tools === undefined ? head : `${head.slice(0, -1)},"tools":${jsonOfTools(tools)}}`
}

/** What the estimate prices: every character the provider will read. */
export const promptText = (body: ChatCompletionCreateParamsBase): string =>
  `[${JSON.stringify(body.messages)},${body.tools === undefined ? "null" : jsonOfTools(body.tools)},${JSON.stringify(body.response_format ?? null)}]`

export interface Answer {
  readonly text: string
  readonly toolCalls: ReadonlyArray<ToolCall>
  readonly finishReason: string
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null
}

export const answerOf = (completion: ChatCompletion): Answer => {
  const choice = completion.choices[0]
  const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
    call.type === "function" ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : []
  )
  return {
    text: choice?.message.content ?? "",
    toolCalls,
    finishReason: choice?.finish_reason ?? "stop",
    usage:
      completion.usage === undefined
        ? null
        : { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
  }
}

/** Gathers a streamed answer: text pieces, tool calls assembled by index, the finish reason, usage. */
export const streamAssembler = () => {
  let text = ""
  let finishReason = "stop"
  let usage: Answer["usage"] = null
  const calls = new Map<number, { id: string; name: string; arguments: string }>()

  return {
    /** Takes one chunk; answers its text, if any. */
    add: (chunk: ChatCompletionChunk): string => {
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens }
      const choice = chunk.choices[0]
      if (choice === undefined) return ""
      if (choice.finish_reason) finishReason = choice.finish_reason
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = calls.get(delta.index) ?? { id: "", name: "", arguments: "" }
        if (delta.id) call.id = delta.id
        if (delta.function?.name) call.name += delta.function.name
        if (delta.function?.arguments) call.arguments += delta.function.arguments
        calls.set(delta.index, call)
      }
      const piece = choice.delta.content ?? ""
      text += piece
      return piece
    },
    answer: (): Answer => ({
      text,
      toolCalls: [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call),
      finishReason,
      usage
    })
  }
}
