/**
 * What the Muse is told before a conversation: its soul (compiled under the Muse's name), who it
 * speaks with, the twin's profile and the memories that bear on the newest message, and that
 * some tools wait for the owner. Pure, so it is read (and tested) without a node.
 */
import type { Attachment, Message } from "./contract/records.ts"
import type { ChatMessage } from "../models/contract/chat.ts"
import type { AttachmentReading } from "./ports.ts"

/** The most characters of one message's attachments the Muse reads, all its files together. */
export const attachmentBudget = 20_000

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
    brief.profile.length === 0
      ? ""
      : `What you know of ${brief.speakingWith}:\n${brief.profile.map((line) => `- ${line}`).join("\n")}`,
    brief.memories.length === 0
      ? ""
      : `Things you remember that may bear on this:\n${brief.memories.map((line) => `- ${line}`).join("\n")}`,
    "Some of your tools act on the world (sending, running code, web requests): those do not run at once; they wait for the owner's approval on their desktop."
  ]
    .filter((line, index) => index < 2 || line !== "")
    .join("\n")

/**
 * A message's attachments as the model reads them: named, then each text file and PDF in full up
 * to the message's budget (said where it is cut), images and unreadable files named as such.
 * `readings` holds what was read, by file id; a file missing from it is only named.
 */
const attachmentsNote = (attachments: ReadonlyArray<Attachment>, readings: ReadonlyMap<string, AttachmentReading>) => {
  if (attachments.length === 0) return ""
  const parts = [
    `[Attached from their uploads: ${attachments.map((file) => `${file.name} (${file.size} bytes)`).join(", ")}]`
  ]
  let left = attachmentBudget
  for (const file of attachments) {
    const reading = readings.get(file.fileId)
    if (reading === undefined) continue
    if (reading.kind === "image") parts.push(`[${file.name} is an image: you cannot see it, only its name.]`)
    else if (reading.kind === "unreadable") parts.push(`[${file.name} could not be read: ${reading.reason}]`)
    else if (left === 0)
      parts.push(
        `[${file.name} was not read: the attachments of one message are read up to ${attachmentBudget} characters in all.]`
      )
    else {
      const text = reading.text.slice(0, left)
      const cut = reading.truncated || text.length < reading.text.length
      left -= text.length
      parts.push(
        [
          `--- ${file.name} ---`,
          text,
          cut
            ? `[${file.name} is cut here: the attachments of one message are read up to ${attachmentBudget} characters in all.]`
            : `--- end of ${file.name} ---`
        ].join("\n")
      )
    }
  }
  return `\n\n${parts.join("\n\n")}`
}

/** The thread so far as the model reads it, with what was read of the attachments (by file id). */
export const conversationOf = (
  history: ReadonlyArray<Message>,
  readings: ReadonlyMap<string, AttachmentReading> = new Map()
): Array<ChatMessage> =>
  history.map(
    (message): ChatMessage =>
      message.role === "user"
        ? { role: "user", content: message.content + attachmentsNote(message.attachments, readings) }
        : { role: "assistant", content: message.content }
  )
