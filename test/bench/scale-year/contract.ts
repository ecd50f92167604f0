/**
 * The contract's list routes, read from `NodeApi` itself: every GET whose answer is an array, or an
 * object holding arrays (a page of items, a summary of groups), and whether each pages, read from
 * its query's schema (a `limit` and its stated maximum, an `offset`, an `after` or `cursor`).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"
import { NodeApi } from "../../../host/contract/api.ts"

export interface ListEndpoint {
  /** `group.endpoint`, as the typed client names it. */
  readonly key: string
  readonly path: string
  readonly paging: Paging
}

export interface Paging {
  /** The stated maximum of `limit`, when the route takes one. */
  readonly limitMax: number | null
  /** `offset`, `after` or `cursor`: what reaches the next page. */
  readonly next: string | null
}

const unwrap = (ast: AST.AST): AST.AST =>
  ast._tag === "Transformation"
    ? unwrap(ast.to)
    : ast._tag === "Refinement"
      ? unwrap(ast.from)
      : ast._tag === "Suspend"
        ? unwrap(ast.f())
        : ast

const isArray = (ast: AST.AST): boolean => {
  const inner = unwrap(ast)
  if (inner._tag === "Union") return inner.types.some(isArray)
  return inner._tag === "TupleType" && inner.rest.length > 0
}

/** An array of records (not of words, as a record's tags are). */
const isArrayOfRecords = (ast: AST.AST): boolean => {
  const inner = unwrap(ast)
  if (inner._tag === "Union") return inner.types.some(isArrayOfRecords)
  if (inner._tag !== "TupleType" || inner.rest.length === 0) return false
  const element = unwrap(inner.rest[0]!.type)
  return (
    element._tag === "TypeLiteral" ||
    (element._tag === "Union" && element.types.some((t) => unwrap(t)._tag === "TypeLiteral"))
  )
}

/** An array, or an object with an array of records among its fields. */
const answersItems = (ast: AST.AST): boolean => {
  const inner = unwrap(ast)
  if (inner._tag === "Union") return inner.types.some(answersItems)
  return (
    isArray(inner) || (inner._tag === "TypeLiteral" && inner.propertySignatures.some((p) => isArrayOfRecords(p.type)))
  )
}

/** The largest `maximum` any refinement inside states (Schema.between, lessThanOrEqualTo...). */
const maximumOf = (ast: AST.AST): number | null => {
  const stated = AST.getJSONSchemaAnnotation(ast).pipe(
    Option.flatMap((annotation) =>
      typeof (annotation as { maximum?: unknown }).maximum === "number"
        ? Option.some((annotation as { maximum: number }).maximum)
        : Option.none()
    ),
    Option.getOrNull
  )
  if (stated !== null) return stated
  switch (ast._tag) {
    case "Transformation":
      return maximumOf(ast.from) ?? maximumOf(ast.to)
    case "Refinement":
      return maximumOf(ast.from)
    case "Union":
      return ast.types.reduce<number | null>((found, type) => found ?? maximumOf(type), null)
    default:
      return null
  }
}

const pagingOf = (urlParams: Option.Option<{ readonly ast: AST.AST }>): Paging => {
  if (Option.isNone(urlParams)) return { limitMax: null, next: null }
  const inner = unwrap(urlParams.value.ast)
  if (inner._tag !== "TypeLiteral") return { limitMax: null, next: null }
  const field = (name: string) => inner.propertySignatures.find((p) => p.name === name)
  const limit = field("limit")
  const next = ["after", "cursor", "offset"].find((name) => field(name) !== undefined) ?? null
  return { limitMax: limit === undefined ? null : (maximumOf(limit.type) ?? Number.POSITIVE_INFINITY), next }
}

/** Every GET of the contract that answers items. */
export const listEndpoints = (): ReadonlyArray<ListEndpoint> => {
  const found: Array<ListEndpoint> = []
  HttpApi.reflect(NodeApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, successes }) => {
      if (endpoint.method !== "GET") return
      const items = [...successes.values()].some(({ ast }) => Option.isSome(ast) && answersItems(ast.value))
      if (!items) return
      found.push({
        key: `${group.identifier}.${endpoint.name}`,
        path: endpoint.path,
        paging: pagingOf(endpoint.urlParamsSchema)
      })
    }
  })
  return found
}

/** Whether the route pages, in words: a way to the next page and a stated maximum, or what it lacks. */
export const pagingWords = (paging: Paging | undefined, cap: string | undefined) => {
  if (paging === undefined) return cap === undefined ? "n/a" : `n/a; ${cap}`
  const limit =
    paging.limitMax === null ? null : Number.isFinite(paging.limitMax) ? `limit ≤ ${paging.limitMax}` : "limit, no max"
  if (paging.next !== null && paging.limitMax !== null && Number.isFinite(paging.limitMax))
    return `yes (${paging.next}, ${limit})`
  const lacks = limit === null ? "no" : `no (${limit}, no next page)`
  return cap === undefined ? lacks : `${lacks}; ${cap}`
}

/** A route pages when it reaches the next page with a stated maximum per page. */
export const pages = (paging: Paging | undefined) =>
  paging !== undefined && paging.next !== null && paging.limitMax !== null && Number.isFinite(paging.limitMax)
