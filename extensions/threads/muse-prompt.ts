/**
 * What the Muse is told before a conversation: its soul (compiled under the Muse's name), who it
 * speaks with, the twin's profile and the memories that bear on the newest message, and that
 * some tools wait for the owner. Pure, so it is read (and tested) without a node.
 */
import type { Attachment, Message } from "./contract/records.ts"
import type { ChatMessage } from "../models/contract/chat.ts"

export interface MuseBrief {
  readonly persona: string
  readonly museName: string
  readonly speakingWith: string
  readonly profile: ReadonlyArray<string>
  readonly memories: ReadonlyArray<string>
}

export const systemPromptOf = (brief: MuseBrief): string =>
  [
    brief.persona,
    "",
    `You are ${brief.museName}, the Muse of ${brief.speakingWith}: the voice of their twin, speaking with them in their own space.`,
    brief.profile.length === 0 ? "" : `What you know of ${brief.speakingWith}:\n${brief.profile.map((line) => `- ${line}`).join("\n")}`,
    brief.memories.length === 0 ? "" : `Things you remember that may bear on this:\n${brief.memories.map((line) => `- ${line}`).join("\n")}`,
    "Some of your tools act on the world (sending, running code, web requests): those do not run at once; they wait for the owner's approval on their desktop."
  ].filter((line, index) => index < 2 || line !== "").join("\n")

const attachmentsNote = (attachments: ReadonlyArray<Attachment>) =>
  attachments.length === 0 ? "" : `\n\n[Attached from their uploads: ${attachments.map((file) => `${file.name} (${file.size} bytes)`).join(", ")}]`

/** The thread so far as the model reads it. */
export const conversationOf = (history: ReadonlyArray<Message>): Array<ChatMessage> =>
  history.map((message): ChatMessage =>
    message.role === "user"
      ? { role: "user", content: message.content + attachmentsNote(message.attachments) }
      : { role: "assistant", content: message.content })
