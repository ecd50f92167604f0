/**
 * What every paged list answers (docs/decisions.md, "Paging"), asserted over raw HTTP for one
 * list: pages that neither overlap nor leave one out, 50 when no page is named, a short last page,
 * and a 400 `invalid_request` for each bad page, after which the list reads as before.
 */
import * as Schema from "effect/Schema"
import { expect } from "vitest"
import { apiError, badPageQueries, bodyAs, type Client } from "./client.ts"

/** What `client`'s GET of `path` answers `query` ("?limit=…", or ""), read by `schema`. */
export const listed = async <A, I>(client: Client, schema: Schema.Schema<A, I>, path: string, query: string) => {
  const answer = await client.raw("GET", `${path}${query}`)
  expect(answer.status, `${path}${query}`).toBe(200)
  return bodyAs(Schema.Array(schema), answer)
}

/**
 * The whole list of more than 50 and fewer than 80 items (one page of 200), asserted to be the
 * two pages of 40 (the second short), and its first 50 when no page is named; answers it.
 */
export const pagesHoldAll = async <A, I>(
  client: Client,
  schema: Schema.Schema<A, I>,
  path: string,
  keyOf: (item: A) => string
) => {
  const all = (await listed(client, schema, path, "?limit=200")).map(keyOf)
  expect(all.length, path).toBeGreaterThan(50)
  expect(all.length, path).toBeLessThan(80)
  const first = (await listed(client, schema, path, "?limit=40")).map(keyOf)
  const second = (await listed(client, schema, path, "?limit=40&offset=40")).map(keyOf)
  expect(first).toHaveLength(40)
  expect(second).toHaveLength(all.length - 40)
  expect(first.filter((key) => second.includes(key))).toEqual([])
  expect([...first, ...second]).toEqual(all)
  expect(await listed(client, schema, path, `?offset=${all.length}`)).toEqual([])
  expect((await listed(client, schema, path, "")).map(keyOf)).toEqual(all.slice(0, 50))
  return all
}

/** Each bad page is a 400 `invalid_request`, and the list reads as before. */
export const refusesBadPages = async <A, I>(client: Client, schema: Schema.Schema<A, I>, path: string) => {
  const before = await listed(client, schema, path, "?limit=200")
  for (const query of badPageQueries) {
    const answer = await client.raw("GET", `${path}?${query}`)
    expect([answer.status, apiError(answer).error], `${path}?${query}`).toEqual([400, "invalid_request"])
  }
  expect(await listed(client, schema, path, "?limit=200")).toEqual(before)
}
