/**
 * What a list that pages by `offset` promises (docs/decisions.md, "Paging"), asserted over raw HTTP
 * for a list whose `limit` bounds and default are its own: two pages read one after another are the
 * list read at once, a page past the end is empty, and an offset out of bounds is refused.
 */
import * as Schema from "effect/Schema"
import { expect } from "vitest"
import { apiError, bodyAs, type Client } from "./client.ts"

/** Offsets every paged list refuses with 400 `invalid_request`: negative, or not a number. */
export const badOffsetQueries = ["offset=-1", "offset=abc"] as const

const Identified = Schema.Array(Schema.Struct({ id: Schema.String }))

/**
 * Reads `path` (a list route, with its own query if any) in two pages of `k` (`offset` 0 and k) and
 * at once (`limit` 2k): the pages do not overlap and together are what was read at once, 2k items
 * (the caller seeds more); `offset` `total` (the list's length) answers [], `total - 1` one item;
 * each of `badOffsetQueries` is 400 `invalid_request` and the list reads the same after. Answers
 * the ids read at once.
 */
export const expectOffsetPages = async (client: Client, path: string, k: number, total: number) => {
  const query = (params: string) => `${path}${path.includes("?") ? "&" : "?"}${params}`
  const ids = async (params: string) => {
    const answer = await client.raw("GET", query(params))
    expect(answer.status, params).toBe(200)
    return bodyAs(Identified, answer).map((item) => item.id)
  }
  const whole = await ids(`limit=${2 * k}`)
  expect(whole).toHaveLength(2 * k)
  const first = await ids(`limit=${k}&offset=0`)
  const second = await ids(`limit=${k}&offset=${k}`)
  expect(first).toHaveLength(k)
  expect(first.filter((id) => second.includes(id))).toEqual([])
  expect([...first, ...second]).toEqual(whole)
  expect(await ids(`limit=${k}&offset=${total - 1}`)).toHaveLength(1)
  expect(await ids(`limit=${k}&offset=${total}`)).toEqual([])
  for (const bad of badOffsetQueries) {
    const answer = await client.raw("GET", query(`limit=${k}&${bad}`))
    expect([answer.status, apiError(answer).error], bad).toEqual([400, "invalid_request"])
  }
  expect(await ids(`limit=${2 * k}`)).toEqual(whole)
  return whole
}
