/**
 * The project feature as one layer: the routes' service (Projects) and the actor that runs
 * projects, each bringing its own store and repositories. What it needs from features it does not
 * own is left open for the host to bind: the ports (ports.ts, alerts.ts), Models and Skills; and
 * the node's infrastructure (SqlClient, EventBus, Sharding, the settings).
 */
import * as Layer from "effect/Layer"
import { ProjectLive } from "./behaviour.ts"
import { Projects } from "./projects.ts"
import { ProjectReplays } from "./replay.ts"

export const ProjectFeature = Layer.mergeAll(Projects.Default, ProjectReplays.Default, ProjectLive)
