/**
 * A ChatGPT data export's `conversations.json`: each conversation with its title, time and messages in the order
 * they were read (from the conversation's current node back to its root, so an edited branch left behind is not
 * read), keeping the person's and the assistant's text parts. What is not such a list is null.
 */
export interface ConversationDraft {
  /** The conversation's own id, or its title and time when it has none. */
  readonly key: string
  readonly title: string
  readonly createdAt: string
  readonly messages: ReadonlyArray<{ readonly role: "user" | "assistant"; readonly text: string; readonly at: string }>
}

interface Node {
  readonly parent?: string | null
  readonly message?: {
    readonly author?: { readonly role?: string }
    readonly content?: { readonly parts?: ReadonlyArray<unknown> }
    readonly create_time?: number | null
  } | null
}

const isoOf = (seconds: unknown, fallback: string) =>
  typeof seconds === "number" && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : fallback

const MAX_MESSAGE = 20_000

export const isConversations = (value: unknown): value is ReadonlyArray<Record<string, unknown>> =>
  Array.isArray(value) && value.every((item) => typeof item === "object" && item !== null && "mapping" in item)

export const readConversations = (text: string): ReadonlyArray<ConversationDraft> | null => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (!isConversations(parsed)) return null
  return parsed.map((conversation) => {
    const createdAt = isoOf(conversation.create_time, new Date(0).toISOString())
    const title =
      String(conversation.title ?? "")
        .trim()
        .slice(0, 200) || "ChatGPT conversation"
    const mapping = (conversation.mapping ?? {}) as Record<string, Node>
    const order: Array<Node> = []
    const current = typeof conversation.current_node === "string" ? conversation.current_node : null
    if (current !== null) {
      const seen = new Set<string>()
      for (let id: string | null | undefined = current; id && mapping[id] && !seen.has(id); id = mapping[id]!.parent) {
        seen.add(id)
        order.unshift(mapping[id]!)
      }
    } else {
      order.push(
        ...Object.values(mapping).sort((a, b) => (a.message?.create_time ?? 0) - (b.message?.create_time ?? 0))
      )
    }
    const messages = order.flatMap((node): ConversationDraft["messages"] => {
      const role = node.message?.author?.role
      if (role !== "user" && role !== "assistant") return []
      const text = (node.message?.content?.parts ?? [])
        .filter((part): part is string => typeof part === "string")
        .join("\n")
        .trim()
        .slice(0, MAX_MESSAGE)
      return text === "" ? [] : [{ role, text, at: isoOf(node.message?.create_time, createdAt) }]
    })
    const id = conversation.conversation_id ?? conversation.id
    return { key: typeof id === "string" && id !== "" ? id : `${title}\n${createdAt}`, title, createdAt, messages }
  })
}
