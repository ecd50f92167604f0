/**
 * The groups feature as the node lists it: its routes with the services behind them (the project store for crews'
 * projects).
 */
import * as Layer from "effect/Layer"
import { Crews } from "./crews.ts"
import { Groups } from "./groups.ts"
import { GroupsHandlers } from "./handlers.ts"

export const groupsFeature = GroupsHandlers.pipe(Layer.provide(Layer.mergeAll(Groups.Default, Crews.Default)))
