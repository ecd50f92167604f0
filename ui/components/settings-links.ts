/**
 * Where the node's words name a place of Settings a person can act in ("bind the tier in Settings →
 * Models"), the place becomes a link: a failed project's error, the Muse saying it is asleep.
 */
import { html, type TemplateResult } from "lit"

const places: ReadonlyArray<readonly [string, string]> = [["Settings → Models", "/settings?section=models"]]

/** Plain text with each named place a link. */
export const linkedText = (text: string): ReadonlyArray<string | TemplateResult> => {
  const parts: Array<string | TemplateResult> = [text]
  for (const [name, href] of places)
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]
      if (typeof part !== "string" || !part.includes(name)) continue
      const [before, ...after] = part.split(name)
      parts.splice(index, 1, before ?? "", html`<a href=${href}>${name}</a>`, after.join(name))
      index += 1
    }
  return parts.filter((part) => part !== "")
}

/** Markdown with each named place a link (the Muse's words are drawn as markdown). */
export const linkedMarkdown = (text: string): string =>
  places.reduce((linked, [name, href]) => linked.replaceAll(name, `[${name}](${href})`), text)
