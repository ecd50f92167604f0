/** The text of an OpenAI chat message's content: the string itself, or its text parts joined. */
import { at } from "./json.ts"

export const textOf = (content: unknown, separator = " "): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .filter((part) => at(part, "type") === "text")
          .map((part) => String(at(part, "text")))
          .join(separator)
      : ""
