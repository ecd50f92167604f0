/**
 * A library loaded at its first use rather than at start (issue 9: an idle node holds only what
 * it runs). Skill-only libraries (Markdown, YAML, HTML to text, recurrence rules, …) are used by
 * synchronous helpers; `require` (which loads ES modules too since Node 22) keeps them
 * synchronous, where `import()` would turn each helper and its callers into asynchronous code.
 * Import the library's types with `import type` beside it so they cost nothing at run time.
 */
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)

/** The module `specifier` names, loaded on the first call and kept. */
export const lazyModule = <M>(specifier: string): (() => M) => {
  let loaded: M | undefined
  return () => (loaded ??= require(specifier) as M)
}
