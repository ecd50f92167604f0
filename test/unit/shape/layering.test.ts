/**
 * The layering of docs/architecture.md, checked on every import of every source file:
 * kernel imports nothing of ours; a contract module imports only Effect, the portable
 * @effect/platform and other contract modules; an actor kind or an extension imports the kernel,
 * contract modules, seeds and its own folder; seeds import contracts; the host imports all but
 * the UI; the UI imports contract modules and itself. And no file imports itself round a circle.
 */
import { describe, expect, it } from "vitest"
import type { Import } from "./imports.ts"
import { crossings as crossingsOf, graph } from "./layers.ts"

/** Tarjan's strongly connected components over local imports; each of more than one file is a circle. */
const circles = (edges: Map<string, Array<Import>>): Array<Array<string>> => {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const visit = (node: string): void => {
    indices.set(node, index)
    low.set(node, index)
    index += 1
    stack.push(node)
    onStack.add(node)
    for (const edge of edges.get(node) ?? []) {
      if (!edge.local || !edges.has(edge.target)) continue
      if (!indices.has(edge.target)) {
        visit(edge.target)
        low.set(node, Math.min(low.get(node)!, low.get(edge.target)!))
      } else if (onStack.has(edge.target)) {
        low.set(node, Math.min(low.get(node)!, indices.get(edge.target)!))
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const node of edges.keys()) if (!indices.has(node)) visit(node)
  return found
}

describe("the layering", () => {
  const edges = graph()

  it("reads the sources (a guard against a pattern that finds nothing)", () => {
    expect(edges.size).toBeGreaterThan(200)
    expect(edges.get("host/node.ts")?.some((edge) => edge.local)).toBe(true)
  })

  it("every import stays within what its layer may import", () => {
    expect(crossingsOf(edges)).toEqual([])
  })

  it("no file imports itself round a circle", () => {
    expect(circles(edges)).toEqual([])
  })
})
