/** A being's twin profile as other features read it (the Muse's name and what it knows of its being). */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Profile } from "./records.ts"

export interface TwinProfilesShape {
  /** The being's profile, or the default (empty sections, timezone UTC) when it never changed it. */
  readonly get: (beingId: string) => Effect.Effect<Profile>
}

export class TwinProfiles extends Context.Tag("twin/TwinProfiles")<TwinProfiles, TwinProfilesShape>() {}
