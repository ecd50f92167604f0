/**
 * Markdown an agent wrote, made safe to show: `marked` turns it into HTML and DOMPurify keeps
 * only harmless markup (no scripts, event handlers, forms, frames or styles; see
 * docs/dependencies.md for why this pair). What comes back is a DOM fragment for a Lit template,
 * never a string put into innerHTML by hand.
 *
 * - HTML written into the markdown is shown as text, not as markup (markdown-it's `html: false`).
 *   Sanitising would remove what is dangerous, but the browser would still report every inline
 *   handler and style it parsed as a violation of the page's content security policy.
 * - Headings are moved three levels down (# becomes h4), so a file's headings sit under the
 *   page's own outline (the page's h1, the card's h2) instead of competing with them; the
 *   original level is kept in `data-depth` for the look.
 * - Relative links and images are read against the file's own URL, so a file that points at its
 *   neighbours in the project's workspace reaches them. An image from another origin is shown
 *   as its alt text: the page's content security policy would refuse it, and loading it would
 *   tell that origin the file was read.
 * - A YAML frontmatter block is shown as a code block rather than as a stray rule and heading.
 */
import DOMPurify from "dompurify"
import { Marked } from "marked"

const HEADING_SHIFT = 3

const escapes: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => escapes[char] ?? char)

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    heading({ tokens, depth }) {
      const level = Math.min(6, depth + HEADING_SHIFT)
      return `<h${level} data-depth="${depth}">${this.parser.parseInline(tokens)}</h${level}>\n`
    },
    html({ text }) {
      return escapeHtml(text)
    }
  }
})

const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/

const withFrontmatterAsCode = (text: string): string =>
  text.replace(frontmatter, (_, yaml: string) => `\`\`\`yaml\n${yaml}\n\`\`\`\n\n`)

const FORBID_TAGS = [
  "style",
  "form",
  "input",
  "button",
  "select",
  "textarea",
  "iframe",
  "frame",
  "object",
  "embed",
  "svg",
  "math"
]

/** Ids and classes would reach into the page's own styles and anchors. */
const FORBID_ATTR = ["style", "class", "id", "name"]

const resolve = (value: string, base: URL): URL | null => {
  try {
    return new URL(value, base)
  } catch {
    return null
  }
}

export const renderMarkdown = (text: string, fileUrl: string): DocumentFragment => {
  const html = marked.parse(withFrontmatterAsCode(text), { async: false })
  const fragment = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true, FORBID_TAGS, FORBID_ATTR })
  const base = new URL(fileUrl, window.location.href)
  for (const link of fragment.querySelectorAll("a[href]")) {
    const url = resolve(link.getAttribute("href") ?? "", base)
    if (url === null) {
      link.removeAttribute("href")
    } else if (url.origin === window.location.origin) {
      link.setAttribute("href", url.href)
    } else {
      link.setAttribute("target", "_blank")
      link.setAttribute("rel", "noopener noreferrer")
    }
  }
  for (const image of fragment.querySelectorAll("img")) {
    const url = resolve(image.getAttribute("src") ?? "", base)
    if (url !== null && url.origin === window.location.origin) {
      image.setAttribute("src", url.href)
      image.setAttribute("loading", "lazy")
    } else {
      image.replaceWith(document.createTextNode(image.getAttribute("alt") ?? ""))
    }
  }
  return fragment
}
