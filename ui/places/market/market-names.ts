/** Beings' names by id, for the market's sellers and reviewers: the node's list, loaded once per section. */
import type { ReactiveControllerHost } from "lit"
import type { PublicBeing } from "../../../extensions/souls/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"

export class BeingNames {
  private readonly _beings: ApiResource<ReadonlyArray<PublicBeing>>

  constructor(host: ReactiveControllerHost) {
    this._beings = new ApiResource(host, (client) => client.beings.listBeings())
  }

  /** "you" for the caller; a being's display name; the id until the list is here. */
  name(beingId: string, selfId: string): string {
    if (beingId === selfId) return "you"
    return this._beings.value?.find((being) => being.id === beingId)?.displayName ?? beingId
  }
}
