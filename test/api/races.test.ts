import { afterEach, describe, expect, it } from "vitest"
import { attempt, Client, firstPage, person, registerOwner, run, startNode, type TestNode } from "../support/node.ts"

describe("races", () => {
  let node: TestNode
  afterEach(() => node.close())

  it("two racing first registrations with the owner code: exactly one owner", async () => {
    node = await startNode()
    const answers = await Promise.all(
      [0, 1].map(() => attempt(new Client(node.url).api.authPublic.register({ payload: person(node.ownerCode) })))
    )
    expect(answers.map((a) => (a.ok ? 200 : a.status)).sort()).toEqual([200, 403])
    const won = answers.find((a) => a.ok)
    expect(won?.ok && won.value.being.isOwner).toBe(true)
  })

  it("20 concurrent registrations with one code: exactly one succeeds", async () => {
    node = await startNode()
    const owner = await registerOwner(node)
    const [code] = await run(owner.client.api.auth.mintCodes({ payload: { count: 1, note: "" } }))
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        attempt(new Client(node.url).api.authPublic.register({ payload: person(code!.code) }))
      )
    )
    const statuses = answers.map((a) => (a.ok ? 200 : a.status))
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 403)).toHaveLength(19)
    expect(await run(owner.client.api.auth.listBeings())).toHaveLength(2)
    const spent = (await run(owner.client.api.auth.listCodes({ urlParams: firstPage }))).find(
      (row) => row.code === code!.code
    )
    const won = answers.find((a) => a.ok)
    expect(spent?.usedBy).toBe(won?.ok ? won.value.being.id : "no registration succeeded")
  })
})
