/**
 * The check a model's scene body must pass: it is parsed (acorn), never run. It must be one
 * function declaration named `createScene`, plain JavaScript with no imports, and it may not name
 * what would reach beyond the page's drawing: fetch, XMLHttpRequest, WebSocket, localStorage,
 * document.cookie or eval (as a name, a property, or a string used to look one up). The page runs
 * sandboxed anyway; this keeps a scene from even trying, and gives the model an exact error to repair.
 */
import type * as Acorn from "acorn"
import type { Token } from "acorn"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** Loaded at the first scene checked: an idle node does not hold it. */
const acorn = lazyModule<typeof Acorn>("acorn")

export const sceneFunctionName = "createScene"

const forbiddenNames: ReadonlySet<string> = new Set(["fetch", "XMLHttpRequest", "WebSocket", "localStorage", "eval"])

export type SceneCheck = { readonly ok: true } | { readonly ok: false; readonly error: string }

const where = (token: Token, source: string) => {
  const line = source.slice(0, token.start).split("\n").length
  return `line ${line}`
}

/** acorn's tokens carry their value (a name's text, a string's decoded content); its types leave it out. */
const tokenValue = (token: Token): unknown => (token as Token & { readonly value?: unknown }).value

const forbiddenIn = (source: string): string | null => {
  const { tokenizer, tokTypes } = acorn()
  const tokens = [...tokenizer(source, { ecmaVersion: "latest" })]
  for (const [index, token] of tokens.entries()) {
    const text = token.type === tokTypes.name || token.type === tokTypes.string ? String(tokenValue(token)) : null
    if (text !== null && forbiddenNames.has(text))
      return `it references ${text} (${where(token, source)}), which a scene may not use`
    if (token.type === tokTypes.name && tokenValue(token) === "document") {
      const next = tokens[index + 1]
      const property = tokens[index + 2]
      if (
        (next?.type === tokTypes.dot || next?.type === tokTypes.bracketL) &&
        property !== undefined &&
        tokenValue(property) === "cookie"
      ) {
        return `it references document.cookie (${where(token, source)}), which a scene may not use`
      }
    }
  }
  return null
}

/** Whether `source` is an acceptable scene body; the error says exactly why not. */
export const checkScene = (source: string): SceneCheck => {
  let program: ReturnType<typeof Acorn.parse>
  try {
    program = acorn().parse(source, { ecmaVersion: "latest", sourceType: "script" })
  } catch (error) {
    return { ok: false, error: `it does not parse as JavaScript: ${(error as Error).message}` }
  }
  const [only, ...rest] = program.body
  if (
    only === undefined ||
    rest.length > 0 ||
    only.type !== "FunctionDeclaration" ||
    only.id?.name !== sceneFunctionName
  ) {
    return {
      ok: false,
      error: `it must be exactly one function declaration, function ${sceneFunctionName}(THREE, scene, camera, random) { ... }, and nothing else`
    }
  }
  const forbidden = forbiddenIn(source)
  return forbidden === null ? { ok: true } : { ok: false, error: forbidden }
}

/** The code of a model's answer: the first fenced block when there is one, else the whole text. */
export const codeOf = (answer: string): string => {
  const fenced = /```[a-zA-Z]*\n([\s\S]*?)```/.exec(answer)
  return (fenced?.[1] ?? answer).trim()
}
