/**
 * Groups over real HTTP: the creator leads, members with roles, renaming and moving, the tree's
 * members, and every refusal. Each check reads exact membership of one group: a crew member is
 * refused on the company above it, a company member on the crew below.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { nodeWithOwner, refused, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let lead: Registered
let worker: Registered
let stranger: Registered

beforeAll(async () => {
  lead = await registerMember(context.node, context.owner.client)
  worker = await registerMember(context.node, context.owner.client)
  stranger = await registerMember(context.node, context.owner.client)
})

const groupsOf = (who: Registered) => who.client.api.groups

describe("groups", () => {
  it("makes the creator the lead, adds members with roles, and lists each person's exact groups", async () => {
    // Sent as a browser would: the name is trimmed and the kind lowercased.
    const created = await lead.client.raw("POST", "/api/groups", { name: "  Acme  ", kind: "Company" })
    expect(created.status).toBe(200)
    const company = created.body as { id: string }
    expect(created.body).toMatchObject({ name: "Acme", kind: "company", parentId: null, createdBy: lead.being.id })
    const crew = await run(
      groupsOf(lead).createGroup({ payload: { name: "Night shift", kind: "crew", parentId: company.id } })
    )
    expect(crew.parentId).toBe(company.id)

    const added = await run(
      groupsOf(lead).addMember({ path: { id: crew.id }, payload: { beingId: worker.being.id, role: "writer" } })
    )
    expect(added.members.map((member) => [member.beingId, member.role, member.beingKind])).toEqual([
      [lead.being.id, "lead", "human"],
      [worker.being.id, "writer", "human"]
    ])
    // Adding again changes the role.
    const changed = await run(
      groupsOf(lead).addMember({ path: { id: crew.id }, payload: { beingId: worker.being.id, role: "editor" } })
    )
    expect(changed.members.find((member) => member.beingId === worker.being.id)?.role).toBe("editor")

    const workerGroups = await run(groupsOf(worker).listGroups())
    expect(workerGroups.map((group) => [group.id, group.myRole])).toEqual([[crew.id, "editor"]])
    expect(await run(groupsOf(stranger).listGroups())).toEqual([])
    const ownerGroups = await run(groupsOf(context.owner).listGroups())
    expect(ownerGroups.map((group) => [group.id, group.myRole])).toEqual(
      expect.arrayContaining([
        [company.id, null],
        [crew.id, null]
      ])
    )

    // A member reads the group they are in; containment grants nothing either way.
    expect((await run(groupsOf(worker).getGroup({ path: { id: crew.id } }))).group.name).toBe("Night shift")
    const up = await refused(groupsOf(worker).getGroup({ path: { id: company.id } }))
    expect([up.status, up.body.error]).toEqual([403, "not_a_member"])
    const companyMember = await registerMember(context.node, context.owner.client)
    await run(
      groupsOf(lead).addMember({
        path: { id: company.id },
        payload: { beingId: companyMember.being.id, role: "member" }
      })
    )
    const down = await refused(groupsOf(companyMember).getGroup({ path: { id: crew.id } }))
    expect([down.status, down.body.error]).toEqual([403, "not_a_member"])
    // The company's lead is not the crew's lead by containment either: here they are both by membership.
    expect((await run(groupsOf(context.owner).getGroup({ path: { id: company.id } }))).members).toHaveLength(2)

    const tree = await run(groupsOf(lead).treeMembers({ path: { id: company.id } }))
    expect(tree.map((row) => [row.beingId, row.groupName, row.role])).toEqual([
      [lead.being.id, "Acme", "lead"],
      [companyMember.being.id, "Acme", "member"],
      [lead.being.id, "Night shift", "lead"],
      [worker.being.id, "Night shift", "editor"]
    ])
    expect(await run(groupsOf(context.owner).treeMembers({ path: { id: crew.id } }))).toHaveLength(2)
    const notLead = await refused(groupsOf(worker).treeMembers({ path: { id: crew.id } }))
    expect([notLead.status, notLead.body.error]).toEqual([403, "not_a_lead"])
    const companyOnly = await refused(groupsOf(companyMember).treeMembers({ path: { id: company.id } }))
    expect([companyOnly.status, companyOnly.body.error]).toEqual([403, "not_a_lead"])
  })

  it("refuses a non-lead's changes, an unknown being, a missing member and leaving a group with no lead", async () => {
    const group = await run(groupsOf(lead).createGroup({ payload: { name: "Household", kind: "household" } }))
    await run(
      groupsOf(lead).addMember({ path: { id: group.id }, payload: { beingId: worker.being.id, role: "member" } })
    )
    const before = await run(groupsOf(lead).getGroup({ path: { id: group.id } }))

    const byMember = await refused(
      groupsOf(worker).addMember({ path: { id: group.id }, payload: { beingId: stranger.being.id, role: "member" } })
    )
    expect([byMember.status, byMember.body.error]).toEqual([403, "not_a_lead"])
    const byStranger = await refused(
      groupsOf(stranger).removeMember({ path: { id: group.id, beingId: worker.being.id } })
    )
    expect([byStranger.status, byStranger.body.error]).toEqual([403, "not_a_lead"])
    const rename = await refused(groupsOf(worker).updateGroup({ path: { id: group.id }, payload: { name: "Mine" } }))
    expect([rename.status, rename.body.error]).toEqual([403, "not_a_lead"])
    const nobody = await refused(
      groupsOf(lead).addMember({ path: { id: group.id }, payload: { beingId: "no-such-being", role: "member" } })
    )
    expect([nobody.status, nobody.body.error]).toEqual([404, "being_not_found"])
    const notIn = await refused(groupsOf(lead).removeMember({ path: { id: group.id, beingId: stranger.being.id } }))
    expect([notIn.status, notIn.body.error]).toEqual([404, "member_not_found"])
    const lastLead = await refused(groupsOf(lead).removeMember({ path: { id: group.id, beingId: lead.being.id } }))
    expect([lastLead.status, lastLead.body.error]).toEqual([409, "last_lead"])
    const demoted = await refused(
      groupsOf(lead).addMember({ path: { id: group.id }, payload: { beingId: lead.being.id, role: "member" } })
    )
    expect([demoted.status, demoted.body.error]).toEqual([409, "last_lead"])
    const missing = await refused(groupsOf(lead).getGroup({ path: { id: "no-such-group" } }))
    expect([missing.status, missing.body.error]).toEqual([404, "group_not_found"])
    const badBody = await lead.client.raw("POST", "/api/groups", { name: "", kind: "crew" })
    expect(badBody.status).toBe(400)
    const extra = await lead.client.raw("POST", `/api/groups/${group.id}/members`, {
      beingId: worker.being.id,
      role: "x",
      groupId: "y"
    })
    expect(extra.status).toBe(400)
    // Nothing changed.
    expect(await run(groupsOf(lead).getGroup({ path: { id: group.id } }))).toEqual(before)

    // With a second lead, the first may go; the owner may manage a group they are not in.
    await run(
      groupsOf(context.owner).addMember({ path: { id: group.id }, payload: { beingId: worker.being.id, role: "Lead" } })
    )
    const after = await run(groupsOf(lead).removeMember({ path: { id: group.id, beingId: lead.being.id } }))
    expect(after.members.map((member) => [member.beingId, member.role])).toEqual([[worker.being.id, "lead"]])
  })

  it("creates and moves inside another group only for a lead of both ends, refusing cycles and depth over 8", async () => {
    const mine = await run(groupsOf(lead).createGroup({ payload: { name: "Circle", kind: "circle" } }))
    const theirs = await run(groupsOf(worker).createGroup({ payload: { name: "Team", kind: "team" } }))
    const inside = await refused(
      groupsOf(lead).createGroup({ payload: { name: "Sub", kind: "crew", parentId: theirs.id } })
    )
    expect([inside.status, inside.body.error]).toEqual([403, "not_a_lead"])
    const noParent = await refused(
      groupsOf(lead).createGroup({ payload: { name: "Sub", kind: "crew", parentId: "no-such-group" } })
    )
    expect([noParent.status, noParent.body.error]).toEqual([404, "group_not_found"])
    const move = await refused(groupsOf(lead).updateGroup({ path: { id: mine.id }, payload: { parentId: theirs.id } }))
    expect([move.status, move.body.error]).toEqual([403, "not_a_lead"])
    const moveTheirs = await refused(
      groupsOf(lead).updateGroup({ path: { id: theirs.id }, payload: { parentId: mine.id } })
    )
    expect([moveTheirs.status, moveTheirs.body.error]).toEqual([403, "not_a_lead"])

    // A chain of 8 is allowed; a ninth level is not, by creating or by moving.
    const chain = [mine]
    for (let level = 2; level <= 8; level++) {
      chain.push(
        await run(
          groupsOf(lead).createGroup({ payload: { name: `Level ${level}`, kind: "crew", parentId: chain.at(-1)!.id } })
        )
      )
    }
    const ninth = await refused(
      groupsOf(lead).createGroup({ payload: { name: "Level 9", kind: "crew", parentId: chain[7]!.id } })
    )
    expect([ninth.status, ninth.body.error]).toEqual([400, "group_too_deep"])
    const loose = await run(groupsOf(lead).createGroup({ payload: { name: "Loose", kind: "crew" } }))
    const deepMove = await refused(
      groupsOf(lead).updateGroup({ path: { id: loose.id }, payload: { parentId: chain[7]!.id } })
    )
    expect([deepMove.status, deepMove.body.error]).toEqual([400, "group_too_deep"])
    const cycle = await refused(
      groupsOf(lead).updateGroup({ path: { id: mine.id }, payload: { parentId: chain[3]!.id } })
    )
    expect([cycle.status, cycle.body.error]).toEqual([400, "group_cycle"])
    const self = await refused(groupsOf(lead).updateGroup({ path: { id: mine.id }, payload: { parentId: mine.id } }))
    expect([self.status, self.body.error]).toEqual([400, "group_cycle"])

    // A lead of both ends moves and renames; null moves to the top.
    const moved = await run(
      groupsOf(lead).updateGroup({ path: { id: loose.id }, payload: { name: "Tight", parentId: chain[6]!.id } })
    )
    expect([moved.name, moved.parentId]).toEqual(["Tight", chain[6]!.id])
    const top = await run(groupsOf(lead).updateGroup({ path: { id: chain[4]!.id }, payload: { parentId: null } }))
    expect(top.parentId).toBeNull()
    expect((await run(groupsOf(lead).getGroup({ path: { id: chain[4]!.id } }))).group.parentId).toBeNull()
  })
})
